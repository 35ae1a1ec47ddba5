import { describe, expect, it } from 'vitest';
import { clientKindOf, deviceLabel } from './device.js';

describe('deviceLabel', () => {
  it('names browser and system of a desktop and a phone', () => {
    expect(
      deviceLabel(
        'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
      ),
    ).toBe('Chrome 131 · Windows 10');
    expect(
      deviceLabel(
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      ),
    ).toBe('Safari 17.5 · iOS 17.5');
  });

  it('shows a program by its own name and nothing for no agent', () => {
    expect(deviceLabel('curl/8.5.0')).toBe('curl/8.5.0');
    expect(deviceLabel('')).toBe('');
  });
});

describe('clientKindOf', () => {
  it('accepts the five kinds in any case and files anything else under other', () => {
    expect(clientKindOf('CLI')).toBe('cli');
    expect(clientKindOf('web')).toBe('web');
    expect(clientKindOf('toaster')).toBe('other');
    expect(clientKindOf(undefined)).toBe('other');
  });
});
