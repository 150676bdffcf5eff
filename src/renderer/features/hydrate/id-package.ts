/**
 * A package for re-hydration, as researchers share them (Skein's own `….for-rehydration.zip`, or any zip holding
 * `post_ids.txt` / `user_ids.txt`): the id file of the kind asked for, read as it is decompressed and bounded, so a
 * zip that expands without end (a zip bomb) stops at the bound instead of filling the window's memory.
 */
import { Unzip, UnzipInflate, UnzipPassThrough } from 'fflate';
import type { LookupKind } from '../../lib/routes';

const ID_FILE: Record<LookupKind, string> = { posts: 'post_ids.txt', users: 'user_ids.txt' };
const TAB: Record<LookupKind, string> = { posts: 'Post ids', users: 'User ids' };

/** the most id text read from one package: about five million ids */
const MAX_PACKAGE_TEXT = 100 * 1024 * 1024;

export type PackageIds = { ok: true; file: string; text: string } | { ok: false; problem: string };

const baseName = (name: string) => name.split('/').pop() ?? name;

export async function idsFromPackage(zip: Blob, kind: LookupKind, limit = MAX_PACKAGE_TEXT): Promise<PackageIds> {
  const wanted = ID_FILE[kind];
  const names: string[] = [];
  const parts: Uint8Array[] = [];
  let size = 0;
  let found: string | null = null;
  let whole = false;
  let tooBig = false;
  let broken: string | null = null;
  const unzip = new Unzip((file) => {
    names.push(baseName(file.name));
    // the package's own files sit at its root; a zip of its folder has them one level down
    if (found !== null || baseName(file.name) !== wanted) return;
    found = file.name;
    file.ondata = (error, chunk, final) => {
      if (error) broken = error.message;
      if (error || tooBig) return;
      size += chunk.length;
      if (size > limit) {
        tooBig = true;
        file.terminate();
        return;
      }
      parts.push(chunk);
      if (final) whole = true;
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  unzip.register(UnzipPassThrough);
  const reader = zip.stream().getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      unzip.push(done ? new Uint8Array(0) : value, done);
      if (done || tooBig || whole || broken !== null) break;
    }
  } catch (error) {
    broken = error instanceof Error ? error.message : String(error);
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  if (tooBig)
    return {
      ok: false,
      problem: `${wanted} in this zip holds more than ${Math.round(limit / 2 ** 20)} MB of ids: unzip it and read ${wanted} itself.`,
    };
  if (found === null) {
    const other = (Object.keys(ID_FILE) as LookupKind[]).find((k) => k !== kind && names.includes(ID_FILE[k]));
    return {
      ok: false,
      problem: other
        ? `This zip holds ${ID_FILE[other]}, not ${wanted}: read it in the ${TAB[other]} tab.`
        : broken !== null
          ? `This file could not be read as a zip (${broken}).`
          : `This zip holds no ${wanted}: a package for re-hydration holds post_ids.txt or user_ids.txt.`,
    };
  }
  if (!whole)
    return {
      ok: false,
      problem: `${wanted} in this zip could not be read to its end${broken !== null ? ` (${broken})` : ''}: the zip may be cut short.`,
    };
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return { ok: true, file: found, text: new TextDecoder().decode(bytes) };
}
