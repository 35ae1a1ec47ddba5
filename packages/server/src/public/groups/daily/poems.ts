import type { FastifyInstance } from 'fastify';
import { PoemIndex, type Poem } from './poem-index.js';

/** The poems snapshot and its verse index, rebuilt only when the library changed (the snapshot array is replaced then). */
export function poemSource(app: FastifyInstance) {
  let indexed: readonly unknown[] | undefined;
  let index: PoemIndex | undefined;
  return {
    poems: (): readonly Poem[] => app.content.items('poems'),
    index(): PoemIndex {
      const current = app.content.items('poems');
      if (!index || indexed !== current) {
        index = new PoemIndex(current);
        indexed = current;
      }
      return index;
    },
  };
}
