import fs from 'node:fs';
import path from 'node:path';

/**
 * What a journal says about the final dot of one marked attempt:
 * - written: its entry is there and its worker wrote more after it, so the dot went out;
 * - last entry: its entry is the last its worker wrote. The dot went out unless the worker was
 *   killed in the instant between the entry and the dot (two system calls apart, but a loaded
 *   machine can hold a process there for milliseconds); no record can tell the two apart;
 * - not written: no entry (killed between the mark and the entry), or a retraction;
 * - unknown: no journal of that worker on this machine.
 */
export type DotVerdict = 'written' | 'last entry' | 'not written' | 'unknown';

/** Entries per journal file before the next one is started. */
const ENTRIES_PER_FILE = 100_000;
/** Journal files untouched this long are removed: every mark they hold was settled long ago. */
const KEEP_MS = 24 * 3600_000;

/**
 * The dot journal: the record that closes the gap between a committed dot mark and its dot.
 *
 * The mark is committed to the database first; then, for each marked row, this worker appends
 * "<row id> <mark time>" to its own journal file with one write(2) and, in the very next call,
 * writes the final dot to the socket with another. A process killed after the commit and before
 * the journal entry leaves a mark without an entry: the dot was never written, and the worker that
 * finds the mark sends the message again. A process killed after the entry has, but for the few
 * instructions between two system calls, written the dot too: the message counts as delivered.
 * A dot the kernel refused (no room, connection gone) gets a retraction line.
 *
 * The journal is a plain file in the data directory, one per worker process (and a new one every
 * ENTRIES_PER_FILE entries), so it answers only for workers of this machine; a mark set by a
 * worker elsewhere is "unknown", and counts as delivered as before.
 */
export class DotJournal {
  private readonly dir: string;
  /** This process's open journal file per owner (one owner per work loop). */
  private readonly files = new Map<string, { fd: number; entries: number; segment: number }>();
  /** Journals of other workers, read up to `size` bytes, with the last whole line read. */
  private readonly read = new Map<string, { size: number; written: Set<string>; last: string }>();

  constructor(dir: string) {
    this.dir = dir;
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.sweep();
  }

  /**
   * Opens `owner`'s journal file if it has none yet. Called before a mark commits: a worker killed
   * between its first mark and its first entry must leave a journal that says "not written", not
   * no journal at all (which reads as "unknown", and counts as delivered).
   */
  open(owner: string): void {
    this.fileOf(owner);
  }

  /** Appends the entry for one dot, before it is written. */
  record(owner: string, id: number, markedAt: number): void {
    this.append(owner, `${id} ${markedAt}\n`);
  }

  /** The dot of an entry just recorded was not written after all. */
  retract(owner: string, id: number, markedAt: number): void {
    this.append(owner, `-${id} ${markedAt}\n`);
  }

  /** Whether the dot of the attempt `owner` marked at `markedAt` went out. */
  verdict(owner: string, id: number, markedAt: number): DotVerdict {
    const files = this.filesOf(owner);
    if (files.length === 0) return 'unknown';
    const key = `${id} ${markedAt}`;
    const journals = files.map((file) => this.load(file));
    if (!journals.some((journal) => journal.written.has(key))) return 'not written';
    const newest = journals.findLast((journal) => journal.last !== '');
    return newest?.last === key ? 'last entry' : 'written';
  }

  close(): void {
    for (const file of this.files.values()) fs.closeSync(file.fd);
    this.files.clear();
  }

  private append(owner: string, line: string): void {
    const file = this.fileOf(owner);
    fs.writeSync(file.fd, line);
    file.entries += 1;
  }

  /** The file `owner` appends to: its open one, or the next segment when that one is full. */
  private fileOf(owner: string): { fd: number; entries: number; segment: number } {
    let file = this.files.get(owner);
    if (!file || file.entries >= ENTRIES_PER_FILE) {
      if (file) fs.closeSync(file.fd);
      const segment = (file?.segment ?? 0) + 1;
      const name = path.join(this.dir, `${fileSafe(owner)}.${segment}.dots`);
      file = { fd: fs.openSync(name, 'a', 0o600), entries: 0, segment };
      this.files.set(owner, file);
      if (segment > 1) this.sweep();
    }
    return file;
  }

  /** `owner`'s journal files, oldest segment first. */
  private filesOf(owner: string): string[] {
    const prefix = `${fileSafe(owner)}.`;
    const segmentOf = (name: string) => Number(name.slice(prefix.length, -'.dots'.length));
    try {
      return fs
        .readdirSync(this.dir)
        .filter((name) => name.startsWith(prefix) && name.endsWith('.dots'))
        .sort((a, b) => segmentOf(a) - segmentOf(b))
        .map((name) => path.join(this.dir, name));
    } catch {
      return [];
    }
  }

  /** The entries of one journal file, read on from where the last read stopped. */
  private load(file: string): { written: Set<string>; last: string } {
    let known = this.read.get(file);
    if (!known) {
      known = { size: 0, written: new Set(), last: '' };
      this.read.set(file, known);
    }
    const size = fs.statSync(file).size;
    if (size > known.size) {
      const fd = fs.openSync(file, 'r');
      const chunk = Buffer.alloc(size - known.size);
      fs.readSync(fd, chunk, 0, chunk.length, known.size);
      fs.closeSync(fd);
      const text = chunk.toString('latin1');
      // Only whole lines count; a torn last line is read again next time.
      const end = text.lastIndexOf('\n') + 1;
      for (const line of text.slice(0, end).split('\n')) {
        if (!line) continue;
        if (line.startsWith('-')) known.written.delete(line.slice(1));
        else known.written.add(line);
        known.last = line;
      }
      known.size += end;
    }
    return known;
  }

  /** Removes journal files nobody has written to for KEEP_MS. */
  private sweep(): void {
    const now = Date.now();
    for (const name of safeList(this.dir)) {
      if (!name.endsWith('.dots')) continue;
      const file = path.join(this.dir, name);
      try {
        if (now - fs.statSync(file).mtimeMs > KEEP_MS) {
          fs.rmSync(file, { force: true });
          this.read.delete(file);
        }
      } catch {
        // Removed by another worker meanwhile.
      }
    }
  }
}

function fileSafe(owner: string): string {
  return owner.replace(/[^A-Za-z0-9._-]/g, '_');
}

function safeList(dir: string): string[] {
  try {
    return fs.readdirSync(dir);
  } catch {
    return [];
  }
}
