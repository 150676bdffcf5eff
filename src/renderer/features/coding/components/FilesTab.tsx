/**
 * The files a coding project leaves by: the annotation table, a REFI-QDA project (QualCoder, MAXQDA, NVivo,
 * ATLAS.ti open it) and its import, and the two share packages, each named for what it allows — for review
 * (pseudonymised with a key kept in the OS key store; cannot be re-hydrated) and for re-hydration (the real
 * post ids only) — opted-out accounts left out of both. Every file is written where main's save dialog says;
 * what was written stays on screen, each file with “Show in folder”.
 */
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { collectionsQuery } from '../../archive';
import type { Citation, SharedPackages } from '../../../../shared/ipc/coding';
import { useForm } from '../../../lib/use-form';
import { shareCollectionRequest, shareFields, shareProblem, shareRequest, type ShareFields } from '../form';
import {
  citationQuery,
  optOutsQuery,
  pseudonymKeyQuery,
  useClearPseudonymKey,
  useExport,
  useImportFile,
  useOptIn,
  useOptOut,
  useSetPseudonymKey,
  useSharePackage,
  useShowInFolder,
} from '../queries';
import { useCodingSelection } from '../selection';
import { Problem } from './parts';

function PseudonymKeySection() {
  const key = useQuery(pseudonymKeyQuery());
  const set = useSetPseudonymKey();
  const clear = useClearPseudonymKey();
  const [draft, setDraft] = useState('');
  const configured = key.data?.status.configured ?? false;
  return (
    <div className="coding-subsection" aria-label="Pseudonymisation key">
      <h3>Pseudonymisation key</h3>
      <p className="muted" data-testid="pseudonym-key">
        {configured
          ? `Set (fingerprint ${key.data?.fingerprint ?? ''}). ${key.data?.status.reason ?? ''} The same key gives the same pseudonyms in every package; it is never written into one.`
          : 'Not set. Generate one, or enter your team’s shared key so everyone’s packages use the same pseudonyms.'}
      </p>
      <form
        className="coding-row"
        onSubmit={(e) => {
          e.preventDefault();
          set.mutate(draft.trim() || undefined, { onSuccess: () => setDraft('') });
        }}
      >
        <label className="field">
          <span>
            {configured
              ? 'Replace with a key (16 characters or more)'
              : 'A key (16 characters or more), or leave empty'}
          </span>
          <input
            className="input"
            type="password"
            autoComplete="off"
            value={draft}
            onChange={(e) => setDraft(e.target.value)}
          />
        </label>
        <button type="submit" className="btn" disabled={draft.trim() !== '' && draft.trim().length < 16}>
          {draft.trim() ? 'Use this key' : configured ? 'Generate a new key' : 'Generate a key'}
        </button>
        {configured ? (
          <button type="button" className="btn" onClick={() => clear.mutate()}>
            Remove the key
          </button>
        ) : null}
      </form>
      <Problem error={set.error ?? clear.error} />
    </div>
  );
}

function OptOuts() {
  const list = useQuery(optOutsQuery());
  const add = useOptOut();
  const remove = useOptIn();
  const [account, setAccount] = useState('');
  return (
    <section className="coding-section" aria-labelledby="coding-optouts">
      <h2 id="coding-optouts">Opted-out accounts</h2>
      <p className="muted">
        An account marked here is left out of every export of this project — its posts, the account, reposts and quotes
        of its posts — in every format, the coding files and the share package.
      </p>
      <ul>
        {list.data?.map((o) => (
          <li key={`${o.userId ?? ''}:${o.handle ?? ''}`}>
            {o.handle ? `@${o.handle}` : ''} {o.userId ? <span className="muted">({o.userId})</span> : null}{' '}
            {o.note ? `· ${o.note}` : ''}{' '}
            <button type="button" className="btn btn--small" onClick={() => remove.mutate(o.userId ?? o.handle ?? '')}>
              Remove
            </button>
          </li>
        ))}
      </ul>
      <form
        className="coding-row"
        onSubmit={(e) => {
          e.preventDefault();
          if (account.trim()) add.mutate(account.trim(), { onSuccess: () => setAccount('') });
        }}
      >
        <label className="field">
          <span>Account (@handle or id)</span>
          <input className="input" value={account} maxLength={64} onChange={(e) => setAccount(e.target.value)} />
        </label>
        <button type="submit" className="btn" disabled={!account.trim()}>
          Leave out of every export
        </button>
      </form>
      <Problem error={add.error ?? remove.error} />
    </section>
  );
}

/** `share`: the collection the form starts with (the Archive's "Share or cite this collection…") */
function SharePackage({ share: collection }: { share?: number }) {
  const saved = useQuery(citationQuery());
  // held here, not in the form: the form is remade from the citation a package saves, and what was written
  // must stay on screen through that
  const share = useSharePackage();
  // the citation the last package was made with fills the form (keyed: a newer one starts it afresh)
  return saved.isPending ? null : (
    <ShareForm
      key={JSON.stringify([saved.data ?? null, collection ?? null])}
      saved={saved.data ?? null}
      share={share}
      collection={collection}
    />
  );
}

/** What a package is of: the coded sample chosen above, or any collection of the project (no coding needed). */
function ShareSource({ form, change }: { form: ShareFields; change: (patch: Partial<ShareFields>) => void }) {
  const { sample } = useCodingSelection();
  const collections = useQuery(collectionsQuery());
  const collectionId = useId();
  return (
    <fieldset className="share__kinds">
      <legend>What to share</legend>
      <label className="coding-radio">
        <input
          type="radio"
          name="share-of"
          checked={form.of === 'sample'}
          disabled={sample === null}
          onChange={() => change({ of: 'sample' })}
        />{' '}
        The coded sample chosen above{sample === null ? ' (none chosen)' : ''}
      </label>
      <label className="coding-radio">
        <input
          type="radio"
          name="share-of"
          checked={form.of === 'collection'}
          onChange={() => change({ of: 'collection' })}
        />{' '}
        A collection of this project, as collected (no coding needed)
      </label>
      {form.of === 'collection' ? (
        collections.data?.length === 0 ? (
          <p className="muted share__kind-note">
            This project holds no collection yet: every export of a view (a thread, a profile, a search) becomes one,
            and so does a search saved in the Archive.
          </p>
        ) : (
          <div className="field share__kind-note">
            <label htmlFor={collectionId}>Collection</label>
            <select
              id={collectionId}
              className="input"
              value={form.collection}
              onChange={(e) => change({ collection: e.target.value })}
            >
              <option value="">choose one</option>
              {collections.data?.map((c) => (
                <option key={c.id} value={String(c.id)}>
                  {c.name} ({c.items.toLocaleString('en-US')} {c.items === 1 ? 'item' : 'items'})
                </option>
              ))}
            </select>
          </div>
        )
      ) : null}
      <Problem error={collections.error} />
    </fieldset>
  );
}

function ShareForm({
  saved,
  share,
  collection,
}: {
  saved: Citation | null;
  share: ReturnType<typeof useSharePackage>;
  collection?: number;
}) {
  const { codebook, sample } = useCodingSelection();
  const key = useQuery(pseudonymKeyQuery());
  // the packages last asked for stay chosen when the form is remade from the citation they saved
  const last = share.variables;
  const [form, change] = useForm(() => ({
    ...shareFields(saved, sample === null || collection !== undefined ? 'collection' : 'sample'),
    ...(collection !== undefined ? { collection: String(collection) } : {}),
    ...(last
      ? {
          review: last.review,
          rehydration: last.rehydration,
          of: last.of,
          ...(last.of === 'collection' ? { collection: String(last.collection) } : {}),
        }
      : {}),
  }));
  // said before the click: what the package still needs (a key to pseudonymise with, an author)
  const collections = useQuery(collectionsQuery());
  const chosen = collections.data?.find((c) => String(c.id) === form.collection);
  const problem = shareProblem(form, sample, key.data?.status.configured ?? true, chosen?.items);
  const coded = form.of === 'sample';
  return (
    <section className="coding-section" aria-labelledby="coding-share">
      <h2 id="coding-share">Share-and-cite package</h2>
      <p className="muted">
        Two packages, each a zip with a README saying what it is and how to cite it. Make one, or both at once: they are
        written side by side under the name you choose.
      </p>
      <ShareSource form={form} change={change} />
      <PseudonymKeySection />
      <form
        className="share__form"
        aria-label="Share package"
        onSubmit={(e) => {
          e.preventDefault();
          if (form.of === 'collection') share.mutate({ of: 'collection', ...shareCollectionRequest(form) });
          else if (codebook !== null && sample !== null)
            share.mutate({ of: 'sample', ...shareRequest(form, codebook, sample) });
        }}
      >
        <fieldset className="share__kinds">
          <legend>Packages</legend>
          <label className="coding-radio">
            <input type="checkbox" checked={form.review} onChange={(e) => change({ review: e.target.checked })} /> For
            review
          </label>
          <p className="muted share__kind-note">
            {coded
              ? 'Every value, the final codes, the codebook, the agreement report and how to cite it;'
              : 'Each item’s pseudonym, its author’s and its time (its text if you ask) and how to cite it;'}{' '}
            ids, handles, names and @mentions replaced by pseudonyms. It cannot be re-hydrated: nobody can fetch the
            posts again with it.
          </p>
          <label className="coding-radio">
            <input
              type="checkbox"
              checked={form.rehydration}
              onChange={(e) => change({ rehydration: e.target.checked })}
            />{' '}
            For re-hydration
          </label>
          <p className="muted share__kind-note">
            The real ids, one per line, and how to cite them, nothing else: no text, no handle, no name, no code.
            Another researcher can fetch the items again with their own access.
          </p>
        </fieldset>
        {form.review ? (
          <label className="coding-radio">
            <input type="checkbox" checked={form.texts} onChange={(e) => change({ texts: e.target.checked })} /> Include
            the post texts in the package for review (pseudonymised)
          </label>
        ) : null}
        {form.review ? (
          <label className="field">
            <span>Public figures keep their names: accounts with at least this many followers (empty: none)</span>
            <input
              className="input coding-input--short"
              inputMode="numeric"
              value={form.publicFigures}
              onChange={(e) => change({ publicFigures: e.target.value })}
            />
          </label>
        ) : null}
        <div className="coding-row">
          <label className="field">
            <span>Title</span>
            <input
              className="input"
              value={form.title}
              maxLength={300}
              onChange={(e) => change({ title: e.target.value })}
            />
          </label>
          <label className="field">
            <span>Version</span>
            <input
              className="input coding-input--short"
              value={form.version}
              onChange={(e) => change({ version: e.target.value })}
            />
          </label>
          <label className="field">
            <span>Licence (SPDX)</span>
            <input
              className="input coding-input--licence"
              value={form.license}
              onChange={(e) => change({ license: e.target.value })}
            />
          </label>
        </div>
        <label className="field">
          <span>Authors, one per line: Family, Given; ORCID (optional)</span>
          <textarea
            className="textarea"
            rows={2}
            value={form.authors}
            onChange={(e) => change({ authors: e.target.value })}
            placeholder="Example, Ana; 0000-0002-1825-0097"
          />
        </label>
        <label className="field">
          <span>Description</span>
          <textarea
            className="textarea"
            rows={2}
            value={form.description}
            maxLength={5000}
            onChange={(e) => change({ description: e.target.value })}
          />
        </label>
        <label className="field">
          <span>Keywords, separated by commas</span>
          <input className="input" value={form.keywords} onChange={(e) => change({ keywords: e.target.value })} />
        </label>
        <button type="submit" className="btn btn--primary" disabled={share.isPending || problem !== null}>
          {form.review && form.rehydration ? 'Save both packages…' : 'Save the package…'}
        </button>
        {problem ? <p className="muted">{problem}</p> : null}
        {share.isPending ? (
          <p role="status" className="muted">
            Making the {form.review && form.rehydration ? 'packages' : 'package'}: a big collection takes a moment.
          </p>
        ) : null}
        <Problem error={share.error} />
      </form>
      {share.data ? <Written packages={share.data.packages} /> : null}
    </section>
  );
}

const KIND_NAME = { review: 'For review', rehydration: 'For re-hydration' } as const;

/** What one click wrote: each package by what it allows, its file, what is inside, and a way to find it. */
function Written({ packages }: { packages: NonNullable<SharedPackages>['packages'] }) {
  return (
    <div role="status" className="share__written" aria-label="Packages written">
      <p>{packages.length === 1 ? 'One package written:' : `${packages.length} packages written:`}</p>
      <ul>
        {packages.map((p) => (
          <WrittenPackage key={p.file} pkg={p} />
        ))}
      </ul>
    </div>
  );
}

function WrittenPackage({ pkg }: { pkg: NonNullable<SharedPackages>['packages'][number] }) {
  const show = useShowInFolder();
  return (
    <li className="share__package">
      <strong>{KIND_NAME[pkg.kind]}</strong>: <span className="share__file">{pkg.file}</span>
      <br />
      {pkg.items} items. {pkg.note} Inside: {pkg.contents.join(', ')}.
      <br />
      <button
        type="button"
        className="btn btn--small"
        aria-label={`Show ${KIND_NAME[pkg.kind].toLowerCase()} in folder`}
        onClick={() => show.mutate(pkg.file)}
      >
        Show in folder
      </button>
      {show.data && !show.data.shown ? <span className="muted"> {show.data.note}</span> : null}
      <Problem error={show.error} />
    </li>
  );
}

export function FilesTab({ share }: { share?: number | undefined }) {
  const { codebook, sample, chooseCodebook } = useCodingSelection();
  const exporter = useExport();
  const importer = useImportFile();
  const fileId = useId();
  // sharing a collected dataset needs no coding: only the coding's own files wait for a codebook
  if (codebook === null)
    return (
      <div className="files">
        <p className="coding__empty">
          The annotation table and a REFI-QDA project need a codebook (the Codebook tab). A collection of this project
          can be shared and cited now.
        </p>
        <SharePackage share={share} />
        <OptOuts />
      </div>
    );
  const scope = { codebook, ...(sample !== null ? { sample } : {}) };
  return (
    <div className="files">
      <section className="coding-section" aria-labelledby="coding-exports">
        <h2 id="coding-exports">Exports</h2>
        <p className="muted">
          {sample !== null ? 'Of the chosen sample.' : 'Of every coded item.'} Codes also appear as extra columns of
          every export of this project’s items (Archive view, any view’s Export).
        </p>
        <div className="coding-row">
          <button type="button" className="btn" onClick={() => exporter.mutate({ kind: 'annotations', scope })}>
            Annotation table (CSV)
          </button>
          <button type="button" className="btn" onClick={() => exporter.mutate({ kind: 'qdpx', scope })}>
            REFI-QDA project (.qdpx)
          </button>
          <label className="btn" htmlFor={fileId}>
            Import a .qdpx…
          </label>
          <input
            id={fileId}
            className="visually-hidden"
            type="file"
            accept=".qdpx"
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file) importer.mutate({ file }, { onSuccess: (r) => chooseCodebook(r.codebook) });
            }}
          />
        </div>
        {exporter.data ? (
          <p role="status">
            Written to {exporter.data.file}. {exporter.data.note}
          </p>
        ) : null}
        {importer.data ? (
          <p role="status">
            Imported codebook “{importer.data.codebookName}” with {importer.data.codings} values
            {importer.data.adjudications ? ` and ${importer.data.adjudications} decided ones` : ''}
            {importer.data.coders ? `, ${importer.data.coders} new coders` : ''}
            {importer.data.itemsNotHeld ? `; ${importer.data.itemsNotHeld} items are not in this project` : ''}.
            {importer.data.warnings.length ? ` ${importer.data.warnings.join(' ')}` : ''}
          </p>
        ) : null}
        <Problem error={exporter.error ?? importer.error} />
      </section>
      <SharePackage share={share} />
      <OptOuts />
    </div>
  );
}
