import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';

/**
 * A subscription to one Redis channel on its own connection (a subscribed connection can do nothing else). Unlike the
 * shared client, it queues its SUBSCRIBE until Redis answers, however long that takes, so an instance starts without
 * Redis and hears the channel once Redis is back; `onReconnect` runs after every reconnection (messages published
 * meanwhile never arrive). Start-up waits at most 3 s for the subscription when Redis is up.
 */
export async function subscribeChannel(
  redis: Redis,
  channel: string,
  log: FastifyBaseLogger,
  handlers: { onMessage(message: string): void; onReconnect?(): void },
): Promise<{ close(): void }> {
  const subscriber = redis.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null });
  subscriber.on('error', (err) => log.warn({ err: err.message, channel }, 'redis subscriber error'));
  let connectedBefore = false;
  subscriber.on('ready', () => {
    if (connectedBefore) handlers.onReconnect?.();
    connectedBefore = true;
  });
  subscriber.on('message', (_channel, message: string) => handlers.onMessage(message));
  const subscribed = subscriber
    .subscribe(channel)
    .catch((err) => log.warn({ err: err.message, channel }, 'redis subscribe failed'));
  if (redis.status === 'ready')
    await Promise.race([subscribed, new Promise((resolve) => setTimeout(resolve, 3000).unref())]);
  // disconnect, not quit: a QUIT would wait in the queue while Redis is unreachable.
  return { close: () => subscriber.disconnect() };
}
