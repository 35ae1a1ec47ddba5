import os from 'node:os';
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

/** How long one window of event-loop delay and CPU use lasts before a new one begins. */
const WINDOW_MS = 60_000;

export interface ProcessSample {
  /** Event-loop delay of the current window, in ms. */
  eventLoop: { p50: number; p99: number; max: number };
  /** This process's CPU time over the last window, as a share of one core (100 = one core busy; more with threads). */
  cpuPercent: number;
  /** The machine's 1, 5 and 15 minute load averages (zeros on Windows) and its cores. */
  load: [number, number, number];
  cores: number;
}

const ms = (ns: number) => Math.round(ns / 1e4) / 100;

/**
 * What this process costs: event-loop delay (perf_hooks, 20 ms resolution) and CPU use (process.cpuUsage), each over a
 * window of up to a minute that starts afresh once a minute has passed, so a reading says how the process does now
 * and not since it started. Reading is cheap and keeps no timer: the windows turn when read.
 */
export class ProcessSampler {
  private readonly delay: IntervalHistogram = monitorEventLoopDelay({ resolution: 20 });
  private since = performance.now();
  private cpuSince = process.cpuUsage();
  /** The window before the current one: what a reading just after a turn reports. */
  private last?: { cpuPercent: number; eventLoop: ProcessSample['eventLoop'] };

  start(): void {
    this.delay.enable();
  }

  stop(): void {
    this.delay.disable();
  }

  read(): ProcessSample {
    const now = performance.now();
    const elapsed = now - this.since;
    const used = process.cpuUsage(this.cpuSince);
    const current = {
      cpuPercent: elapsed > 0 ? Math.round(((used.user + used.system) / 1000 / elapsed) * 1000) / 10 : 0,
      eventLoop:
        this.delay.count > 0
          ? { p50: ms(this.delay.percentile(50)), p99: ms(this.delay.percentile(99)), max: ms(this.delay.max) }
          : { p50: 0, p99: 0, max: 0 },
    };
    // A window only a moment old says little: the previous one stands until this one has a few seconds behind it.
    const shown = elapsed < 5_000 && this.last ? this.last : current;
    if (elapsed >= WINDOW_MS) {
      this.last = current;
      this.since = now;
      this.cpuSince = process.cpuUsage();
      this.delay.reset();
    }
    const [a, b, c] = os.loadavg();
    const round = (n: number) => Math.round(n * 100) / 100;
    return { ...shown, load: [round(a), round(b), round(c)], cores: os.availableParallelism() };
  }
}
