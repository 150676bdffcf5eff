/**
 * XML Schema validation for tests (unit and e2e): xmllint compiled to WebAssembly (the xmllint-wasm package), so
 * `npm install && npm test` needs no system xmllint.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { validateXML } from 'xmllint-wasm';

/**
 * Validates an XML document against a schema (a folder of .xsd files, `main` the one to validate against);
 * the validator's error lines, empty when valid.
 */
export async function schemaErrors(xml: string, schemaDir: string, main = 'gexf.xsd'): Promise<string[]> {
  const files = readdirSync(schemaDir).filter((f) => f.endsWith('.xsd'));
  const result = await validateXML({
    xml: [{ fileName: 'document.xml', contents: xml }],
    schema: [{ fileName: main, contents: readFileSync(join(schemaDir, main), 'utf8') }],
    preload: files
      .filter((f) => f !== main)
      .map((f) => ({ fileName: basename(f), contents: readFileSync(join(schemaDir, f), 'utf8') })),
    // large networks: room for the document and its tree (the default is 32 MiB)
    maxMemoryPages: 4096,
  });
  return result.valid ? [] : result.errors.map((e) => e.rawMessage);
}
