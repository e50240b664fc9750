import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isWireSafe } from '../../src/lib/mime-wire.ts';
import { RelaxedBody, splitPieces } from '../../src/mta/dkim/canonicalize.ts';
import { dkimSign } from '../../src/mta/dkim/dkim-sign.ts';
import { inSharedMemory, isWireSafePieces, ownedBytes } from '../../src/mta/pipeline/message-pieces.ts';
import { dotStuff } from '../../src/mta/smtp-client/dot-stuff.ts';
import { makeKey } from './dkim-helpers.ts';

/**
 * A recipient's copy kept as pieces must come out byte for byte as the joined message would: the
 * same body hash, the same wire-safety verdict, the same dot-stuffed DATA. Each is checked here
 * against the definition applied to the joined bytes, over messages made of the awkward bytes
 * (CR, LF, WSP, dots, 8-bit) cut into pieces at every kind of place, a CRLF or a CR LF pair split
 * between two pieces included.
 */

/** RFC 6376 §3.4.4 as written: split into lines, squeeze WSP, drop it at line ends, drop trailing empty lines. */
function relaxedReference(body: string): string {
  const lines = body.split(/\r?\n/).map((line) => line.replace(/[ \t]+/g, ' ').replace(/ $/, ''));
  while (lines.length > 0 && lines[lines.length - 1] === '') lines.pop();
  return lines.length === 0 ? '' : `${lines.join('\r\n')}\r\n`;
}

/** RFC 5321 §4.5.2 byte by byte: a dot at a line start doubled, bare LF made CRLF, a final CRLF. */
function stuffReference(body: Buffer): Buffer {
  const out: number[] = [];
  let lineStart = true;
  for (let i = 0; i < body.length; i++) {
    const byte = body[i] as number;
    if (lineStart && byte === 0x2e) out.push(0x2e);
    if (byte === 0x0a && (i === 0 || body[i - 1] !== 0x0d)) out.push(0x0d);
    out.push(byte);
    lineStart = byte === 0x0a;
  }
  if (!lineStart || body.length === 0) out.push(0x0d, 0x0a);
  return Buffer.from(out);
}

/** A deterministic generator, so a failure names the seed that made it. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

const ALPHABET = ['a', 'b', ' ', '\t', '\r', '\n', '\r\n', '.', 'é', 'x'.repeat(300)];

function message(next: () => number): Buffer {
  const parts: string[] = [];
  const length = Math.floor(next() * 60);
  for (let i = 0; i < length; i++) parts.push(ALPHABET[Math.floor(next() * ALPHABET.length)] as string);
  return Buffer.from(parts.join(''), 'utf8');
}

/** The message cut at random places, some pieces on shared memory as the stored message's slices are. */
function cut(bytes: Buffer, next: () => number): Buffer[] {
  const pieces: Buffer[] = [];
  let at = 0;
  while (at < bytes.length) {
    const end = Math.min(bytes.length, at + 1 + Math.floor(next() * 12));
    const piece = bytes.subarray(at, end);
    pieces.push(next() < 0.5 ? inSharedMemory(piece) : Buffer.from(piece));
    at = end;
  }
  return pieces;
}

describe('a copy kept as pieces', () => {
  it('canonicalises a body in pieces exactly as the RFC does the joined body', () => {
    for (let seed = 1; seed <= 3000; seed++) {
      const next = random(seed);
      const body = message(next);
      const out: Uint8Array[] = [];
      const canonical = new RelaxedBody((chunk) => out.push(Buffer.from(chunk)));
      for (const piece of cut(body, next)) canonical.write(piece);
      canonical.end();
      assert.equal(
        Buffer.concat(out).toString('latin1'),
        relaxedReference(body.toString('latin1')),
        `seed ${seed}: ${JSON.stringify(body.toString('latin1'))}`,
      );
    }
  });

  it('signs pieces with the signature of the joined message, header block split anywhere', () => {
    const key = { domain: 'example.com', selector: 's1', privateKey: makeKey().privateKey };
    const now = new Date('2026-11-27T00:00:00Z');
    for (let seed = 1; seed <= 300; seed++) {
      const next = random(seed);
      const head = `From: a@example.com\r\nSubject: Piece ${seed}\r\n \tfolded\nTo: b@example.org\r\n`;
      const blank = ['\r\n', '\n', ''][seed % 3] as string;
      const whole = Buffer.concat([Buffer.from(head + blank), message(next)]);
      const pieces = cut(whole, next);
      assert.equal(dkimSign(pieces, key, { now }), dkimSign(whole, key, { now }), `seed ${seed}`);
      const split = splitPieces(pieces);
      assert.deepEqual(
        split.headers.map((h) => h.name),
        ['From', 'Subject', 'To'],
      );
    }
  });

  it('gives the wire-safety verdict of the joined message', () => {
    for (let seed = 1; seed <= 2000; seed++) {
      const next = random(seed);
      const whole = Buffer.concat([
        Buffer.from(`Subject: ${seed % 5 === 0 ? 'é' : 'e'}\r\n\r\n`),
        message(next),
      ]);
      for (const eightBit of [true, false]) {
        assert.equal(
          isWireSafePieces(cut(whole, next), { eightBit }),
          isWireSafe(whole, { eightBit }),
          `seed ${seed}, 8bit ${eightBit}`,
        );
      }
    }
  });

  it('dot-stuffs pieces into the DATA of the joined message, copying none of them', () => {
    for (let seed = 1; seed <= 1500; seed++) {
      const next = random(seed);
      const body = message(next);
      const pieces = cut(body, next);
      const stuffed = dotStuff(pieces);
      assert.deepEqual(Buffer.concat(stuffed), stuffReference(body), `seed ${seed}`);
      for (const piece of stuffed) {
        const from = pieces.find((p) => p.buffer === piece.buffer);
        assert.ok(from || piece.length <= 2, 'only the added dots and line ends are new');
      }
    }
  });

  it('counts as owned only the pieces that are not slices of the shared stored message', () => {
    const stored = inSharedMemory(Buffer.alloc(1000, 0x61));
    const own = Buffer.from('header\r\n');
    assert.equal(ownedBytes([own, stored.subarray(0, 500), stored.subarray(500)]), own.length);
    assert.equal(ownedBytes([own, stored], [Buffer.from('x'), own]), own.length + 1, 'each piece once');
  });
});
