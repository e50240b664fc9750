/**
 * The record table behind the DNS peer and the answer logic, kept apart from the sockets so the
 * rules are readable in one place: exact records → NOERROR with answers; a known name without that
 * type → NOERROR empty (NODATA); a CNAME at the name → the CNAME, followed inside the table; an
 * unknown name → NXDOMAIN. A name counts as known when it, or any name below it, has records (an
 * "empty non-terminal" such as example.test when only _dmarc.example.test is set), as real
 * authoritative servers do. TXT values are split into 255-byte character-strings here because
 * dns-packet writes a single length byte and would silently corrupt longer strings.
 */
import type { Answer, RecordType } from 'dns-packet';

export interface MxRecord {
  priority: number;
  exchange: string;
}

/** Record values per type accepted by `set()`. A TXT record is one string, or its pieces. */
export interface DnsRecordsByType {
  A: string[];
  AAAA: string[];
  MX: MxRecord[];
  TXT: (string | string[])[];
  CNAME: string[];
  NS: string[];
}

export type DnsRecordType = keyof DnsRecordsByType;
export type DnsFailure = 'SERVFAIL' | 'timeout';

export type DnsLookup = { kind: 'timeout' } | { kind: 'answer'; rcode: number; answers: Answer[] };

export const RCODE = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NXDOMAIN: 3 } as const;

/** Lower-cased, without the trailing dot: the key every table lookup uses. */
export function normalizeName(name: string): string {
  return name.toLowerCase().replace(/\.+$/, '');
}

/** Splits a TXT record into character-strings of at most 255 bytes each. */
export function txtChunks(value: string | string[]): Buffer[] {
  const pieces = Array.isArray(value) ? value : [value];
  const chunks: Buffer[] = [];
  for (const piece of pieces) {
    const bytes = Buffer.from(piece, 'utf8');
    if (bytes.length === 0) chunks.push(bytes);
    for (let at = 0; at < bytes.length; at += 255) chunks.push(bytes.subarray(at, at + 255));
  }
  return chunks;
}

type StoredRecords = { [T in DnsRecordType]?: DnsRecordsByType[T] };

export interface DnsZone {
  set<T extends DnsRecordType>(name: string, type: T, records: DnsRecordsByType[T]): void;
  remove(name: string, type?: DnsRecordType): void;
  fail(name: string, failure: DnsFailure | null): void;
  clear(): void;
  lookup(name: string, type: RecordType): DnsLookup;
}

export function createZone(ttl: number): DnsZone {
  const table = new Map<string, StoredRecords>();
  const failures = new Map<string, DnsFailure>();

  const exists = (name: string): boolean => {
    if (table.has(name)) return true;
    const suffix = `.${name}`;
    for (const key of table.keys()) if (key.endsWith(suffix)) return true;
    return false;
  };

  const toAnswers = (owner: string, type: DnsRecordType, records: StoredRecords): Answer[] => {
    const base = { name: owner, ttl, class: 'IN' as const };
    switch (type) {
      case 'MX':
        return (records.MX ?? []).map((mx) => ({
          ...base,
          type: 'MX' as const,
          data: { preference: mx.priority, exchange: mx.exchange },
        }));
      case 'TXT':
        return (records.TXT ?? []).map((txt) => ({ ...base, type: 'TXT' as const, data: txtChunks(txt) }));
      default:
        return (records[type] ?? []).map((data) => ({ ...base, type, data }));
    }
  };

  const lookup = (qname: string, qtype: RecordType): DnsLookup => {
    const start = normalizeName(qname);
    const failure = failures.get(start);
    if (failure === 'timeout') return { kind: 'timeout' };
    if (failure === 'SERVFAIL') return { kind: 'answer', rcode: RCODE.SERVFAIL, answers: [] };

    const answers: Answer[] = [];
    const seen = new Set<string>();
    let owner = qname.replace(/\.+$/, '');
    let name = start;
    while (!seen.has(name)) {
      seen.add(name);
      const records = table.get(name);
      if (!records) break;
      if (qtype in records) {
        answers.push(...toAnswers(owner, qtype as DnsRecordType, records));
        break;
      }
      const target = records.CNAME?.[0];
      if (target === undefined) break;
      answers.push({ name: owner, ttl, class: 'IN', type: 'CNAME', data: target });
      owner = target.replace(/\.+$/, '');
      name = normalizeName(target);
    }
    const rcode = answers.length === 0 && !exists(start) ? RCODE.NXDOMAIN : RCODE.NOERROR;
    return { kind: 'answer', rcode, answers };
  };

  return {
    set(name, type, records) {
      const key = normalizeName(name);
      const stored = table.get(key) ?? {};
      (stored as Record<string, unknown>)[type] = [...records];
      table.set(key, stored);
    },
    remove(name, type) {
      const key = normalizeName(name);
      if (type === undefined) {
        table.delete(key);
        return;
      }
      const stored = table.get(key);
      if (!stored) return;
      delete stored[type];
      if (Object.keys(stored).length === 0) table.delete(key);
    },
    fail(name, failure) {
      if (failure === null) failures.delete(normalizeName(name));
      else failures.set(normalizeName(name), failure);
    },
    clear() {
      table.clear();
      failures.clear();
    },
    lookup,
  };
}
