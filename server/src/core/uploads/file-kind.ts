/**
 * What a file is, told by its first bytes rather than its name or the type the browser sent:
 * a renamed executable or HTML page is not an image because it is called licence.png. Only the
 * three kinds compliance uploads accept are known.
 */
export type FileKind = 'image/png' | 'image/jpeg' | 'application/pdf';

const SIGNATURES: { kind: FileKind; bytes: number[] }[] = [
  { kind: 'image/png', bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { kind: 'image/jpeg', bytes: [0xff, 0xd8, 0xff] },
  { kind: 'application/pdf', bytes: [0x25, 0x50, 0x44, 0x46, 0x2d] },
];

export function sniffFileKind(content: Buffer): FileKind | null {
  for (const { kind, bytes } of SIGNATURES) {
    if (content.length >= bytes.length && bytes.every((b, i) => content[i] === b)) return kind;
  }
  return null;
}

/** The kind a file name claims by its extension, among those accepted; null for any other. */
export function kindOfName(name: string): FileKind | null {
  const extension = /\.([A-Za-z0-9]+)$/.exec(name)?.[1]?.toLowerCase();
  if (extension === 'png') return 'image/png';
  if (extension === 'jpg' || extension === 'jpeg') return 'image/jpeg';
  if (extension === 'pdf') return 'application/pdf';
  return null;
}

export const isImageKind = (kind: string): boolean => kind === 'image/png' || kind === 'image/jpeg';
