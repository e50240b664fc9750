import fs from 'node:fs';
import path from 'node:path';

/** What a journal says about the final dot of one marked attempt. */
export type DotVerdict = 'written' | 'not written' | 'unknown';

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
  /** Journals of other workers, read up to `size` bytes. */
  private readonly read = new Map<string, { size: number; written: Set<string> }>();

  constructor(dir: string) {
    this.dir = dir;
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    this.sweep();
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
    return files.some((file) => this.load(file).has(key)) ? 'written' : 'not written';
  }

  close(): void {
    for (const file of this.files.values()) fs.closeSync(file.fd);
    this.files.clear();
  }

  private append(owner: string, line: string): void {
    let file = this.files.get(owner);
    if (!file || file.entries >= ENTRIES_PER_FILE) {
      if (file) fs.closeSync(file.fd);
      const segment = (file?.segment ?? 0) + 1;
      const name = path.join(this.dir, `${fileSafe(owner)}.${segment}.dots`);
      file = { fd: fs.openSync(name, 'a', 0o600), entries: 0, segment };
      this.files.set(owner, file);
      if (segment > 1) this.sweep();
    }
    fs.writeSync(file.fd, line);
    file.entries += 1;
  }

  private filesOf(owner: string): string[] {
    const prefix = `${fileSafe(owner)}.`;
    try {
      return fs
        .readdirSync(this.dir)
        .filter((name) => name.startsWith(prefix) && name.endsWith('.dots'))
        .map((name) => path.join(this.dir, name));
    } catch {
      return [];
    }
  }

  /** The entries of one journal file, read on from where the last read stopped. */
  private load(file: string): Set<string> {
    let known = this.read.get(file);
    if (!known) {
      known = { size: 0, written: new Set() };
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
        if (line.startsWith('-')) known.written.delete(line.slice(1));
        else if (line) known.written.add(line);
      }
      known.size += end;
    }
    return known.written;
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
