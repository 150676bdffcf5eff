/**
 * Packaging needs network, so CI checks electron-builder's configuration
 * instead: loaded and schema-validated by electron-builder's own code, then
 * the promises Skein makes about its release builds.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config.js';
import type { Configuration, TargetConfiguration } from 'electron-builder';
import { beforeAll, describe, expect, it } from 'vitest';
import { APP_ID } from './app-id';

const ROOT = resolve(import.meta.dirname, '../../..');
const quietLogger = { isEnabled: false, add: () => {} } as unknown as Parameters<typeof validateConfiguration>[1];
let config: Configuration;

function targets(value: unknown): string[] {
  const list = Array.isArray(value) ? value : [value];
  return list.map((t: string | TargetConfiguration) => (typeof t === 'string' ? t : t.target));
}

/** File patterns, whether written as strings or (after validation normalizes them) as `{ filter }` sets. */
function filePatterns(files: Configuration['files']): string[] {
  const list = Array.isArray(files) ? files : files ? [files] : [];
  return list.flatMap((f) => (typeof f === 'string' ? [f] : [f.filter ?? []].flat()));
}

function pngSize(file: string): { width: number; height: number } {
  const buf = readFileSync(resolve(ROOT, file));
  expect(buf.subarray(1, 4).toString('ascii')).toBe('PNG');
  return { width: buf.readUInt32BE(16), height: buf.readUInt32BE(20) };
}

beforeAll(async () => {
  config = await getConfig(ROOT, null, null);
});

describe('electron-builder configuration', () => {
  it('passes electron-builder’s own schema validation', async () => {
    await expect(validateConfiguration(config, quietLogger)).resolves.toBeUndefined();
  });

  it('would be rejected by that validation if it had an unknown option', async () => {
    await expect(validateConfiguration({ ...config, notAnOption: true } as Configuration, quietLogger)).rejects.toThrow(
      /notAnOption/,
    );
  });

  it('names the app', () => {
    expect(config.appId).toMatch(/^[a-z][a-z0-9-]*(\.[a-z][a-z0-9-]*)+$/);
    expect(config.productName).toBe('Skein');
    // the Windows AppUserModelId main sets must be the installer's app id
    expect(config.appId).toBe(APP_ID);
  });

  it('builds dmg for macOS, nsis for Windows, AppImage and deb for Linux', () => {
    expect(targets(config.mac?.target)).toContain('dmg');
    expect(targets(config.win?.target)).toContain('nsis');
    expect(targets(config.linux?.target)).toEqual(expect.arrayContaining(['AppImage', 'deb']));
  });

  it('ships only the build output, inside an asar archive', () => {
    expect(config.asar).toBe(true);
    const patterns = filePatterns(config.files);
    expect(patterns).toEqual(expect.arrayContaining(['out/**/*', 'package.json']));
    expect(patterns.filter((p) => !p.startsWith('!')).every((p) => p === 'package.json' || p.startsWith('out/'))).toBe(
      true,
    );
  });

  it('flips the Electron fuses of a release build', () => {
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      grantFileProtocolExtraPrivileges: false,
      // fuses change the binary after signing: an unsigned Apple Silicon build must be re-signed ad hoc
      resetAdHocDarwinSignature: true,
    });
  });

  it('has the icons each platform needs', () => {
    expect(pngSize(String(config.mac?.icon))).toEqual({ width: 1024, height: 1024 });
    expect(pngSize(String(config.win?.icon)).width).toBeGreaterThanOrEqual(256);
    expect(pngSize(`${String(config.linux?.icon)}/512x512.png`)).toEqual({ width: 512, height: 512 });
    expect(pngSize(`${String(config.linux?.icon)}/256x256.png`)).toEqual({ width: 256, height: 256 });
  });

  it('packages the entry point the build produces', () => {
    const pkg = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as { main: string };
    expect(pkg.main).toBe('./out/main/index.js');
  });

  it('has what the deb target needs (homepage, repository) and Electron 45’s Node range', () => {
    const pkg = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as {
      homepage?: string;
      repository?: unknown;
      engines?: { node?: string };
    };
    expect(pkg.homepage).toMatch(/^https:\/\//);
    expect(pkg.repository).toBeTruthy();
    expect(pkg.engines?.node).toBe('>=22.12');
  });

  it('ships only what main runs: the renderer’s libraries and test-only packages are build-time', () => {
    const pkg = JSON.parse(readFileSync(resolve(ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    const runtime = Object.keys(pkg.dependencies);
    for (const name of ['react', 'react-dom', '@tanstack/react-query', 'virtua', 'zustand', 'electron'])
      expect(runtime).not.toContain(name);
    // what main and its sandbox import at run time stays (the coding workbench's files: zip, REFI-QDA XML, CSV)
    expect(runtime).toEqual(
      expect.arrayContaining([
        'zod',
        'fastify',
        'conf',
        'hyparquet-writer',
        'lru-cache',
        '@faker-js/faker',
        'fflate',
        'fast-xml-parser',
        'csv-parse',
        'csv-stringify',
        // a team project's connection, and its tables read through COPY
        'pg',
        'pg-copy-streams',
      ]),
    );
  });
});
