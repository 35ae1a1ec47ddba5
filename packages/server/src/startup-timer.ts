/**
 * Times the stages of the server's start, for the one line it logs once it listens: where a slow start went
 * (a slow disk under the migrations, a busy host under the data sets) shows without a profiler.
 *
 *   const timer = new StartupTimer(0); // from the process's start
 *   timer.mark('modules');
 *   loadConfig(); timer.mark('config');
 *   …
 *   app.log.info({ startupMs: timer.stages }, timer.summary()); // "started in 812 ms: modules 400 ms, config 3 ms, …"
 */
export class StartupTimer {
  /** Milliseconds per stage, in the order the stages ended. */
  readonly stages: Record<string, number> = {};
  private readonly since: number;
  private last: number;

  /** `since`: where the first stage began, on performance.now()'s clock (0: when the process started). */
  constructor(since = performance.now()) {
    this.since = since;
    this.last = since;
  }

  /** Ends `stage`: the time since the previous mark (or since the timer was made) is its own. */
  mark(stage: string): void {
    const now = performance.now();
    this.stages[stage] = Math.round(now - this.last);
    this.last = now;
  }

  /** `started in 812 ms: modules 400 ms, config 3 ms, database 95 ms, plugins 300 ms, listen 14 ms` */
  summary(): string {
    const parts = Object.entries(this.stages).map(([stage, ms]) => `${stage} ${ms} ms`);
    return `started in ${Math.round(this.last - this.since)} ms: ${parts.join(', ')}`;
  }
}
