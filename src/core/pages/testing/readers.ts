/**
 * A WACZ read back by readers Skein does not write with: Python's own zipfile, hashlib, gzip and json (a
 * researcher's script), and warcio's WARCParser. Each says what it found; the tests compare.
 */
import { execFileSync } from 'node:child_process';
import { unzipSync } from 'fflate';
import { WARCParser } from 'warcio';

export interface PythonReading {
  /** the zip's entries, in order */
  names: string[];
  /** every resource of datapackage.json: does its file have the hash and size it names */
  resources: { path: string; hashOk: boolean; bytesOk: boolean }[];
  /** datapackage-digest.json names datapackage.json's own hash */
  digestOk: boolean;
  /** every entry of the archive stored, not compressed again */
  stored: boolean;
  /** pages.jsonl: its header line, then its pages' URLs */
  pagesHeader: Record<string, unknown>;
  pageUrls: string[];
  /** each CDXJ line, resolved by Python's gzip: the URL in the index and the record's WARC-Target-URI there */
  cdx: { url: string; offset: number; length: number; target: string | null; type: string | null }[];
  /** every record of data.warc.gz (Python's gzip, member by member) */
  records: { type: string; target: string | null }[];
}

const SCRIPT = String.raw`
import gzip, hashlib, io, json, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
names = z.namelist()
dp = json.loads(z.read('datapackage.json'))
res = []
for r in dp['resources']:
    data = z.read(r['path'])
    res.append({'path': r['path'], 'hashOk': r['hash'] == 'sha256:' + hashlib.sha256(data).hexdigest(), 'bytesOk': r['bytes'] == len(data)})
digest = json.loads(z.read('datapackage-digest.json'))
digest_ok = digest['path'] == 'datapackage.json' and digest['hash'] == 'sha256:' + hashlib.sha256(z.read('datapackage.json')).hexdigest()
stored = all(i.compress_type == zipfile.ZIP_STORED for i in z.infolist())
lines = z.read('pages/pages.jsonl').decode('utf-8').splitlines()
header = json.loads(lines[0])
urls = [json.loads(l)['url'] for l in lines[1:] if l.strip()]
warc = z.read('archive/data.warc.gz')
def head(block):
    fields = {}
    for line in block.split(b'\r\n\r\n', 1)[0].split(b'\r\n')[1:]:
        k, _, v = line.decode('utf-8').partition(':')
        fields[k.strip().lower()] = v.strip()
    return fields
cdx = []
for line in z.read('indexes/index.cdx').decode('utf-8').splitlines():
    if not line.strip(): continue
    j = json.loads(line.split(' ', 2)[2])
    o, n = int(j['offset']), int(j['length'])
    f = head(gzip.decompress(warc[o:o + n]))
    cdx.append({'url': j['url'], 'offset': o, 'length': n, 'target': f.get('warc-target-uri'), 'type': f.get('warc-type')})
records = []
d = gzip.decompress(warc)
pos = 0
while pos < len(d):
    f = head(d[pos:])
    end = d.index(b'\r\n\r\n', pos) + 4
    pos = end + int(f['content-length']) + 4
    records.append({'type': f['warc-type'], 'target': f.get('warc-target-uri')})
print(json.dumps({'names': names, 'resources': res, 'digestOk': digest_ok, 'stored': stored, 'pagesHeader': header, 'pageUrls': urls, 'cdx': cdx, 'records': records}))
`;

export function readWithPython(wacz: string): PythonReading {
  return JSON.parse(execFileSync('python3', ['-c', SCRIPT, wacz], { encoding: 'utf8' })) as PythonReading;
}

export interface WarcioRecord {
  type: string;
  target: string | null;
  status: number | null;
  /** its HTTP `Location` header, for a redirect's response */
  location: string | null;
  /** the HTTP payload, for a response */
  payload: Buffer | null;
}

/** data.warc.gz out of the WACZ (fflate), every record parsed by warcio's WARCParser */
export async function readWithWarcio(waczBytes: Uint8Array): Promise<WarcioRecord[]> {
  const warc = unzipSync(waczBytes, { filter: (f) => f.name === 'archive/data.warc.gz' })['archive/data.warc.gz'];
  if (!warc) throw new Error('no archive/data.warc.gz');
  const out: WarcioRecord[] = [];
  const parser = new WARCParser(
    (async function* () {
      yield warc;
    })(),
  );
  for await (const record of parser) {
    const payload = record.warcType === 'response' ? Buffer.from(await record.readFully(true)) : null;
    out.push({
      type: record.warcType ?? '',
      target: record.warcTargetURI ?? null,
      status: record.httpHeaders ? Number(record.httpHeaders.statusCode) : null,
      location: record.httpHeaders?.headers.get('Location') ?? null,
      payload,
    });
  }
  return out;
}
