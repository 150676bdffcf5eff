import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { checkXml, LIMITS, UnsafeFile, unzipOne } from './bounded';
import { readQdc, readQdpx } from './refi-project';
import { billionLaughs } from '../testing/hostile-files';

const codebook = (name: string) =>
  `<CodeBook xmlns="urn:QDA-XML:codebook:1.0" origin="x"><Codes><Code guid="5f0c2a7e-0000-4000-8000-000000000001" name="${name}" isCodable="true"/></Codes></CodeBook>`;

describe('a file from elsewhere, before it is parsed', () => {
  it('a zip bomb (200 MB of zeros in a few hundred KB) is refused by its size, without expanding it', () => {
    const bomb = zipSync({ 'project.qde': new Uint8Array(200 * 1024 * 1024) }, { level: 9 });
    expect(bomb.length).toBeLessThan(1024 * 1024);
    expect(() => readQdpx(bomb, 0)).toThrow(UnsafeFile);
    expect(() => readQdpx(bomb, 0)).toThrow(/would expand to 200 MB, more than 64 MB/);
  });

  it('a smaller bomb within the size limit is refused by its ratio', () => {
    const bomb = zipSync({ 'project.qde': new Uint8Array(20 * 1024 * 1024) }, { level: 9 });
    expect(() => unzipOne(bomb, 'project.qde')).toThrow(/would expand \d+ times/);
    // real XML of that size compresses far less and is read
    const xml = strToU8(
      `<Project>${Array.from({ length: 20_000 }, (_, i) => `<S n="${i * 7919}"/>`).join('')}</Project>`,
    );
    expect(unzipOne(zipSync({ 'project.qde': xml }, { level: 9 }), 'project.qde')?.length).toBe(xml.length);
  });

  it('a zip of too many entries is refused', () => {
    const many: Record<string, Uint8Array> = {};
    for (let i = 0; i <= LIMITS.entries; i++) many[`f${i}`] = new Uint8Array(0);
    expect(() => unzipOne(zipSync(many), 'project.qde')).toThrow(/more than 10000 files/);
  });

  it('entities are refused in a .qdc and in a .qdpx: any document type, before parsing', () => {
    expect(() => readQdc(billionLaughs(codebook('Stance &lol9;')))).toThrow(/declares a document type or entities/);
    const qdpx = zipSync({
      'project.qde': strToU8(billionLaughs(`<Project name="p">${codebook('Stance &lol9;')}</Project>`)),
    });
    expect(() => readQdpx(qdpx, 0)).toThrow(UnsafeFile);
    // the five predefined entities and character references are no declaration: still read
    expect(readQdc(codebook('Stance &amp; tone &#233;')).definition.fields[0]?.label).toBe('Stance & tone é');
  });

  it('elements nested past the limit are refused; comments, CDATA and empty elements do not count', () => {
    expect(() => checkXml('<a>'.repeat(LIMITS.depth + 1))).toThrow(/nest more than 200 deep/);
    const fine = `${'<a>'.repeat(LIMITS.depth)}<b/><!-- <c><c><c> --><![CDATA[<d><d>]]>${'</a>'.repeat(LIMITS.depth)}`;
    expect(checkXml(`<x>${'<e/>'.repeat(10_000)}</x>`)).toContain('<e/>');
    expect(checkXml(fine)).toBe(fine);
  });
});
