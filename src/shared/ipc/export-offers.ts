/**
 * The export offers (`export.formats`) as the dialogs use them: which apply to a view or to the Archive view's
 * query, which controls an offer shows, and the format, options and cells an offer and its controls' values
 * start an export with. Pure, so main's registry tests and the renderer share them.
 */
import type { ItemKind } from '../api/catalog';
import { CsvCells, ExportOptions, type ControlKey, type FormatControl, type FormatOffer } from './export';

type SelectControl = Extract<FormatControl, { type: 'select' }>;

/** What the person has set: a checkbox's checked state, a select's value (shared by every offer with that key). */
export type ControlValues = Partial<Record<ControlKey, string | boolean>>;

/** The offers a view of this kind of item can be exported to, in the registry's order. */
export function offersFor(offers: readonly FormatOffer[], kind: ItemKind): FormatOffer[] {
  return offers.filter((o) => !o.kinds || o.kinds.includes(kind));
}

/** A hydration's offers for its kind of item: the formats a read-back list is analysed in (all, if none says so). */
export function hydrationOffers(offers: readonly FormatOffer[], kind: ItemKind): FormatOffer[] {
  const fit = offersFor(offers, kind);
  const here = fit.filter((o) => o.hydration);
  return here.length > 0 ? here : fit;
}

/** The Archive view's offers for its kind of item: the one marked `first` first, then the registry's order. */
export function archiveOffers(offers: readonly FormatOffer[], kind: 'post' | 'user'): FormatOffer[] {
  const here = offers.filter((o) => o.archive?.kinds.includes(kind));
  return [...here.filter((o) => o.archive?.first), ...here.filter((o) => !o.archive?.first)];
}

/** A select's choices that apply to this kind of item. */
export function choicesFor(control: SelectControl, kind: ItemKind): SelectControl['choices'] {
  return control.choices.filter((c) => !c.kinds || c.kinds.includes(kind));
}

/** The controls an offer shows for a view's kind of item: a select only when more than one of its choices applies. */
export function controlsFor(offer: FormatOffer, kind: ItemKind): FormatControl[] {
  return offer.controls.filter((c) => c.type !== 'select' || choicesFor(c, kind).length > 1);
}

/** What a control sets: a checkbox its `on` or `off`, a select its value (its first applicable choice until one is picked). */
export function controlValue(
  control: FormatControl,
  values: ControlValues,
  kind: ItemKind,
): string | boolean | undefined {
  const v = values[control.key];
  if (control.type === 'toggle') return v === true ? control.on : control.off;
  const choices = choicesFor(control, kind);
  return (choices.find((c) => c.value === v) ?? choices[0])?.value;
}

/** The format, options and cells an offer starts an export with: its preset options and its own controls' values. */
export function chosenExport(
  offer: FormatOffer,
  values: ControlValues,
  kind: ItemKind,
): { format: string; options: ExportOptions; csvCells?: CsvCells } {
  const options: Record<string, unknown> = { ...offer.options };
  let cells: unknown;
  for (const control of offer.controls) {
    const v = controlValue(control, values, kind);
    if (v === undefined) continue;
    if (control.key === 'csvCells') cells = v;
    else options[control.key] = v;
  }
  // the offers are main's own; parsing types them (main checks the export's input again)
  return {
    format: offer.format,
    options: ExportOptions.parse(options),
    csvCells: cells === undefined ? undefined : CsvCells.parse(cells),
  };
}
