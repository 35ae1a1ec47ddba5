/** Each byte's two lower-case hex digits (`HEX_OF_BYTE[0x0f]` is `'0f'`): hex text by look-up, no toString per byte. */
export const HEX_OF_BYTE: readonly string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));
