import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import { SIGNED_OUT_MESSAGES, isSignedOutCode } from '../../errors.js';
import type { EndedSession } from '../auth/service.js';
import { subscribeChannel } from '../../http/redis-subscriber.js';

const CHANNEL = 'tianji:session-ended';

/** What a listening client is told when its session ends. */
export interface SessionEndedEvent {
  sessionId: string;
  reason: string;
  message: string;
}

type Listener = (e: SessionEndedEvent) => void;

/**
 * The instant notice of ended sessions: open event streams register under their session id; an ended session is
 * delivered to the streams of this instance at once and, with Redis, published so every other instance delivers
 * it to its own.
 */
export class SessionEvents {
  private readonly listeners = new Map<string, Set<Listener>>();
  private readonly instanceId = randomUUID();
  private subscription?: { close(): void };

  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly redis?: Redis,
  ) {}

  async start(): Promise<void> {
    if (!this.redis) return;
    this.subscription = await subscribeChannel(this.redis, CHANNEL, this.log, {
      onMessage: (message) => {
        const sep = message.indexOf('|');
        if (message.slice(0, sep) === this.instanceId) return;
        try {
          this.deliver(JSON.parse(message.slice(sep + 1)) as SessionEndedEvent[]);
        } catch (err) {
          this.log.warn({ err }, 'session events: unreadable message');
        }
      },
    });
  }

  async close(): Promise<void> {
    this.subscription?.close();
  }

  /** Registers a stream of session `sessionId`; returns its unsubscribe. */
  listen(sessionId: string, fn: Listener): () => void {
    let set = this.listeners.get(sessionId);
    if (!set) this.listeners.set(sessionId, (set = new Set()));
    set.add(fn);
    return () => {
      set.delete(fn);
      if (set.size === 0) this.listeners.delete(sessionId);
    };
  }

  /** Tells every instance's streams of these sessions that they ended, and why. */
  async publish(ended: EndedSession[]): Promise<void> {
    const events = ended.map((e) => {
      const reason = e.reason === 'LOGOUT' ? 'SESSION_ENDED' : e.reason;
      return {
        sessionId: e.id,
        reason,
        message: isSignedOutCode(reason) ? SIGNED_OUT_MESSAGES[reason] : SIGNED_OUT_MESSAGES.SESSION_ENDED,
      };
    });
    this.deliver(events);
    await this.redis
      ?.publish(CHANNEL, `${this.instanceId}|${JSON.stringify(events)}`)
      .catch((err) => this.log.warn({ err: err.message }, 'session events publish failed'));
  }

  private deliver(events: SessionEndedEvent[]): void {
    for (const e of events) for (const fn of this.listeners.get(e.sessionId) ?? []) fn(e);
  }
}
