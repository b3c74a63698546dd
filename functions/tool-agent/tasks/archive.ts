// Unpacks a repository archive (.tar.gz, as GitHub serves one, or a plain .tar) into files.
// Pure apart from the Web-standard DecompressionStream. The archive is untrusted: sizes are
// capped while reading, and the caller checks every path before writing it anywhere.
import { readAtMost } from "../read-bytes.ts";

export interface ArchiveFile {
  path: string;
  content: string;
}

export class ArchiveError extends Error {
  override readonly name = "ArchiveError";
}

const BLOCK = 512;
const decoder = new TextDecoder();

const field = (block: Uint8Array, start: number, length: number) =>
  decoder.decode(block.subarray(start, start + length)).replace(/\0.*$/s, "");

async function gunzip(bytes: Uint8Array, maxBytes: number): Promise<Uint8Array> {
  const unpacked = await readAtMost(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip")), maxBytes);
  if (!unpacked) throw new ArchiveError(`the archive unpacks to more than ${maxBytes} bytes`);
  return unpacked;
}

/** The regular files of a tar archive, with the one top-level folder every entry shares removed. */
export function untar(tar: Uint8Array): ArchiveFile[] {
  const files: ArchiveFile[] = [];
  let longName: string | undefined;
  for (let offset = 0; offset + BLOCK <= tar.length; ) {
    const header = tar.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) break;
    const size = Number.parseInt(field(header, 124, 12).trim() || "0", 8);
    if (!Number.isFinite(size) || size < 0) throw new ArchiveError("the archive has a damaged header");
    const type = String.fromCharCode(header[156] ?? 0);
    const prefix = field(header, 345, 155);
    const name = longName ?? (prefix ? `${prefix}/${field(header, 0, 100)}` : field(header, 0, 100));
    const body = tar.subarray(offset + BLOCK, offset + BLOCK + size);
    if (body.length < size) throw new ArchiveError("the archive ends inside a file");
    longName = undefined;
    if (type === "x") {
      // A pax header: its `path` record names the next entry.
      longName = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(decoder.decode(body))?.[1];
    } else if (type === "0" || type === "\0") {
      files.push({ path: name, content: decoder.decode(body) });
    }
    offset += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
  }
  const top = files[0]?.path.split("/")[0];
  const shared = top !== undefined && files.every((file) => file.path.startsWith(`${top}/`));
  return shared ? files.map((file) => ({ ...file, path: file.path.slice(top.length + 1) })) : files;
}

/** gzip magic bytes first: a .tar.gz; otherwise a plain tar. */
export async function unpackArchive(bytes: Uint8Array, maxBytes: number): Promise<ArchiveFile[]> {
  const gzipped = bytes[0] === 0x1f && bytes[1] === 0x8b;
  return untar(gzipped ? await gunzip(bytes, maxBytes) : bytes);
}

/** Where to download a repository: GitHub's archive of its default branch, or the URL itself. */
export function archiveUrl(repoUrl: string): string {
  const url = new URL(repoUrl);
  const repo = /^\/([\w.-]+)\/([\w.-]+?)(?:\.git)?\/?$/.exec(url.pathname);
  if (url.hostname === "github.com" && repo) return `https://codeload.github.com/${repo[1]}/${repo[2]}/tar.gz/HEAD`;
  return url.toString();
}
