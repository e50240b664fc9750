/**
 * Below this size a message's pieces (mta/pipeline/message-pieces.ts) are joined where they cross
 * to a thread or go to a socket: one buffer is cloned and written for less than many small ones,
 * and a copy this small costs no memory worth saving.
 */
export const JOIN_BELOW_BYTES = 256 * 1024;

/** The pieces as one buffer when they are small together; as they are otherwise. */
export function joinedWhenSmall<Piece extends Uint8Array>(pieces: readonly Piece[]): readonly Uint8Array[] {
  if (pieces.length < 2) return pieces;
  let length = 0;
  for (const piece of pieces) length += piece.byteLength;
  return length < JOIN_BELOW_BYTES ? [Buffer.concat(pieces)] : pieces;
}
