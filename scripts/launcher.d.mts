import type { ChildProcess } from 'node:child_process';

export const ALLOCATOR_ENV: Readonly<Record<string, string>>;
export const SERVER_ENTRY: string;
export function runServer(entry: string, args?: string[]): ChildProcess;
