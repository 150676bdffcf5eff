/**
 * The format registry: the formats Skein writes, in the order the dialogs offer them. Adding a format is one
 * module (jsonl.ts is the one to copy) and one line here. The registry is a value: createCore takes a list
 * (`formats`, default `BUILT_IN_FORMATS`), so a test can register a format of its own beside these.
 */
import { DEFAULT_ACTIONS, SkeinError } from '../../shared/errors';
import type { FormatOffer } from '../../shared/ipc/export';
import { ExportFormat } from '../../shared/ipc/export';
import { csv } from './csv';
import type { Format, SaveFilter } from './format';
import { gephiCsv } from './gephi-csv';
import { gexf } from './gexf';
import { graphml } from './graphml';
import { ids } from './ids';
import { json } from './json';
import { jsonl } from './jsonl';
import { parquet } from './parquet';

export const BUILT_IN_FORMATS: readonly Format[] = [json, jsonl, csv, parquet, gexf, graphml, gephiCsv, ids];

export interface Formats {
  /** the format of an id; a `bad-input` error naming `field` when no format has it */
  get: (id: string, field?: string) => Format;
  /** every format, in order */
  list: () => readonly Format[];
  /** what the dialogs offer, in order (`export.formats`) */
  offers: () => FormatOffer[];
  /** whether `format` is the built-in one of its id (a re-export's own worker knows only those) */
  builtIn: (format: Format) => boolean;
}

/** The save dialog's filter of a format. */
export function saveFilter(format: Format): SaveFilter {
  return format.filter ?? { name: format.label, extensions: [format.extension] };
}

function badFormat(id: string, field: string): SkeinError {
  const message = `Skein cannot write the format “${id.slice(0, 40)}”.`;
  return new SkeinError('bad-input', message, {
    fields: [{ field, message }],
    action: DEFAULT_ACTIONS['bad-input'],
  });
}

/** A registry of these formats; throws on an id that is not a format id, or that two of them share (a bug). */
export function formatRegistry(formats: readonly Format[] = BUILT_IN_FORMATS): Formats {
  const byId = new Map<string, Format>();
  const offerIds = new Set<string>();
  for (const f of formats) {
    if (!ExportFormat.safeParse(f.id).success) throw new Error(`not a format id: ${f.id}`);
    if (byId.has(f.id)) throw new Error(`two formats with the id ${f.id}`);
    if (f.offers.length === 0) throw new Error(`the format ${f.id} offers nothing`);
    for (const o of f.offers) {
      if (offerIds.has(o.id)) throw new Error(`two offers with the id ${o.id}`);
      offerIds.add(o.id);
    }
    byId.set(f.id, f);
  }
  const offers: FormatOffer[] = formats.flatMap((f) =>
    f.offers.map((o) => ({
      ...o,
      format: f.id,
      label: o.label ?? f.label,
      hint: o.hint ?? f.hint,
      options: o.options ?? {},
      controls: o.controls ?? [],
    })),
  );
  const builtIns = new Set<Format>(BUILT_IN_FORMATS);
  return {
    get: (id, field = 'format') => {
      const format = byId.get(id);
      if (!format) throw badFormat(id, field);
      return format;
    },
    list: () => formats,
    offers: () => structuredClone(offers),
    builtIn: (format) => builtIns.has(format),
  };
}
