/** Answers of the last minute, by whose fault a failure was. */
export interface MinuteCounts {
  requests: number;
  /** Failed answers the caller caused (status below 500, and the public API's 500 for a bad parameter). */
  callerErrors: number;
  /** Failed answers that are the server's fault. */
  serverFaults: number;
}

const SLOTS = 60;

/**
 * Every answer of this instance over the last 60 seconds, in one-second slots (a ring): what 服务监控 shows as
 * requests and faults per minute. One array write per answer; the slot of a second long past is cleared when reused.
 *
 *   const recent = new RecentRequests();
 *   recent.record(undefined); recent.record('server');
 *   recent.lastMinute(); // { requests: 2, callerErrors: 0, serverFaults: 1 }
 */
export class RecentRequests {
  private readonly second = new Float64Array(SLOTS);
  private readonly requests = new Uint32Array(SLOTS);
  private readonly caller = new Uint32Array(SLOTS);
  private readonly server = new Uint32Array(SLOTS);

  /** One answer: `failure` undefined on success. `now` in ms (a parameter for tests). */
  record(failure: 'caller' | 'server' | undefined, now = Date.now()): void {
    const s = Math.floor(now / 1000);
    const i = s % SLOTS;
    if (this.second[i] !== s) {
      this.second[i] = s;
      this.requests[i] = 0;
      this.caller[i] = 0;
      this.server[i] = 0;
    }
    this.requests[i]++;
    if (failure === 'caller') this.caller[i]++;
    else if (failure === 'server') this.server[i]++;
  }

  /** The counts of the 60 seconds up to `now` (this second included). */
  lastMinute(now = Date.now()): MinuteCounts {
    const s = Math.floor(now / 1000);
    const out = { requests: 0, callerErrors: 0, serverFaults: 0 };
    for (let i = 0; i < SLOTS; i++) {
      if (this.second[i] <= s - SLOTS || this.second[i] > s) continue;
      out.requests += this.requests[i];
      out.callerErrors += this.caller[i];
      out.serverFaults += this.server[i];
    }
    return out;
  }
}
