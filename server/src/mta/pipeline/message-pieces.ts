import { isAscii } from 'node:buffer';
import { MAX_LINE_OCTETS, type WireOptions } from '../../lib/mime-wire.ts';
import { bodyOffset } from '../dkim/canonicalize.ts';

/**
 * A recipient's copy of a message, kept as pieces in order rather than joined: its own header
 * lines and rewritten parts, and between them slices of the stored message that every copy of it
 * shares. Joining would give each recipient in flight a full copy (16 MB for the largest SMTP
 * mail); as pieces, a copy costs only what it changed. The pieces go as they are to the DKIM
 * signer (dkim-pool.ts) and to DATA (dot-stuff.ts).
 *
 * The stored message of SMTP mail lives in a SharedArrayBuffer (`inSharedMemory`): the DKIM
 * workers then read its slices in place, and a piece on shared memory is by that sign one a copy
 * does not own (`ownedBytes`, what the copy budget counts).
 */
export type MessagePieces = readonly Buffer[];

/** `bytes` moved once into shared memory, so that slices of it cross to worker threads uncopied. */
export function inSharedMemory(bytes: Buffer): Buffer {
  if (bytes.buffer instanceof SharedArrayBuffer) return bytes;
  const shared = Buffer.from(new SharedArrayBuffer(bytes.length));
  bytes.copy(shared);
  return shared;
}

export function lengthOf(pieces: MessagePieces): number {
  let length = 0;
  for (const piece of pieces) length += piece.length;
  return length;
}

/**
 * The bytes that belong to a copy alone: every piece not on the shared stored message, each
 * counted once however many of the given forms of the copy (built, signed) hold it.
 */
export function ownedBytes(...forms: MessagePieces[]): number {
  const owned = new Set<Buffer>();
  for (const pieces of forms)
    for (const piece of pieces) if (!(piece.buffer instanceof SharedArrayBuffer)) owned.add(piece);
  let bytes = 0;
  for (const piece of owned) bytes += piece.length;
  return bytes;
}

export function isAsciiPieces(pieces: MessagePieces): boolean {
  return pieces.every((piece) => isAscii(piece));
}

/** mime-wire.ts `isWireSafe` over the pieces, lines running on across their boundaries. */
export function isWireSafePieces(pieces: MessagePieces, options: WireOptions): boolean {
  if (hasLongLine(pieces)) return false;
  if (isAsciiPieces(pieces)) return true;
  if (!options.eightBit) return false;
  let header = bodyOffset(pieces);
  for (const piece of pieces) {
    if (header <= 0) break;
    if (!isAscii(piece.subarray(0, header))) return false;
    header -= piece.length;
  }
  return true;
}

function hasLongLine(pieces: MessagePieces): boolean {
  /** Octets of the line being read, carried from one piece to the next. */
  let line = 0;
  let previous = -1;
  for (const piece of pieces) {
    let start = 0;
    for (let at = piece.indexOf(0x0a); at >= 0; at = piece.indexOf(0x0a, start)) {
      const cr = (at > 0 ? piece[at - 1] : previous) === 0x0d;
      if (line + at - start - (cr ? 1 : 0) > MAX_LINE_OCTETS) return true;
      line = 0;
      start = at + 1;
    }
    line += piece.length - start;
    if (line > MAX_LINE_OCTETS + 1) return true;
    if (piece.length > 0) previous = piece[piece.length - 1] as number;
  }
  return line > MAX_LINE_OCTETS;
}
