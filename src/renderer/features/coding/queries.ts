/**
 * Server state of the coding workbench (TanStack Query): codebooks, coders, samples, a coder's queue and values,
 * agreement and disagreements (only once the coder chose to see them), opted-out accounts, the keys' status,
 * model runs; and the mutations, each invalidating what it changes. None of these is an API call.
 */
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CodedKind, CodeValue } from '../../../shared/coding/codebook';
import type { CodebookDefinitionInput } from '../../../shared/coding/codebook';
import type { ModelSettingsInput, Stratum } from '../../../shared/coding/records';
import type { DrawSampleRequest, ShareCollectionInput, ShareInput, UploadKind } from '../../../shared/ipc/coding';
import { MAX_UPLOAD_SLICE } from '../../../shared/ipc/coding';
import type { ArchiveQuery } from '../../../shared/ipc/archive';
import { skein } from '../../lib/bridge';

const codingKeys = {
  all: ['coding'] as const,
  codebooks: () => ['coding', 'codebooks'] as const,
  codebook: (id: number) => ['coding', 'codebook', id] as const,
  coders: () => ['coding', 'coders'] as const,
  coderHere: () => ['coding', 'coderHere'] as const,
  samples: (codebook: number) => ['coding', 'samples', codebook] as const,
  queue: (sample: number, coder: number) => ['coding', 'queue', sample, coder] as const,
  values: (codebook: number, coder: number, kind: CodedKind, ids: readonly string[]) =>
    ['coding', 'values', codebook, coder, kind, ids.join(',')] as const,
  agreement: (codebook: number, sample: number | null, viewer: number) =>
    ['coding', 'agreement', codebook, sample, viewer] as const,
  disagreements: (codebook: number, sample: number | null, viewer: number, unresolvedOnly: boolean, offset: number) =>
    ['coding', 'disagreements', codebook, sample, viewer, unresolvedOnly, offset] as const,
  population: (source: unknown, stratum: Stratum | null) => ['coding', 'population', source, stratum] as const,
  optOuts: () => ['coding', 'optOuts'] as const,
  modelEndpoint: () => ['coding', 'modelEndpoint'] as const,
  modelRuns: () => ['coding', 'modelRuns'] as const,
  pseudonymKey: () => ['coding', 'pseudonymKey'] as const,
  citation: () => ['coding', 'citation'] as const,
};

export const codebooksQuery = () =>
  queryOptions({ queryKey: codingKeys.codebooks(), queryFn: () => skein().coding.codebooks(), staleTime: 0 });

export const useCodebook = (id: number | null) =>
  useQuery({
    queryKey: codingKeys.codebook(id ?? 0),
    queryFn: () => skein().coding.codebook({ id: id! }),
    enabled: id !== null,
    staleTime: 0,
  });

export const codersQuery = () =>
  queryOptions({ queryKey: codingKeys.coders(), queryFn: () => skein().coding.coders(), staleTime: 0 });

/** who codes at this computer (main keeps it, per project), and the switches the project recorded */
export const coderHereQuery = () =>
  queryOptions({ queryKey: codingKeys.coderHere(), queryFn: () => skein().coding.coderHere(), staleTime: 0 });

export const useSamples = (codebook: number | null) =>
  useQuery({
    queryKey: codingKeys.samples(codebook ?? 0),
    queryFn: () => skein().coding.samples({ codebook: codebook! }),
    enabled: codebook !== null,
    staleTime: 0,
  });

export const useQueue = (sample: number | null, coder: number | null) =>
  useQuery({
    queryKey: codingKeys.queue(sample ?? 0, coder ?? 0),
    queryFn: () => skein().coding.queue({ sample: sample!, coder: coder!, offset: 0, limit: 200 }),
    enabled: sample !== null && coder !== null,
    staleTime: 0,
  });

/** One coder's values of the items a view shows (coding where posts are shown). */
export const useValues = (codebook: number | null, coder: number | null, kind: CodedKind, ids: readonly string[]) =>
  useQuery({
    queryKey: codingKeys.values(codebook ?? 0, coder ?? 0, kind, ids),
    queryFn: () => skein().coding.values({ codebook: codebook!, coder: coder!, kind, ids: [...ids] }),
    enabled: codebook !== null && coder !== null && ids.length > 0,
    staleTime: 0,
  });

export const useAgreement = (
  codebook: number | null,
  sample: number | null,
  viewer: number | null,
  revealed: boolean,
) =>
  useQuery({
    queryKey: codingKeys.agreement(codebook ?? 0, sample, viewer ?? 0),
    queryFn: () =>
      skein().coding.agreement({ codebook: codebook!, viewer: viewer!, ...(sample !== null ? { sample } : {}) }),
    enabled: codebook !== null && viewer !== null && revealed,
    staleTime: 0,
  });

export const useDisagreements = (
  codebook: number | null,
  sample: number | null,
  viewer: number | null,
  revealed: boolean,
  unresolvedOnly: boolean,
  offset: number,
) =>
  useQuery({
    queryKey: codingKeys.disagreements(codebook ?? 0, sample, viewer ?? 0, unresolvedOnly, offset),
    queryFn: () =>
      skein().coding.disagreements({
        codebook: codebook!,
        viewer: viewer!,
        unresolvedOnly,
        offset,
        limit: 20,
        ...(sample !== null ? { sample } : {}),
      }),
    enabled: codebook !== null && viewer !== null && revealed,
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export type SampleSource = Omit<ArchiveQuery, 'project' | 'sort'>;

export const usePopulation = (source: SampleSource, stratum: Stratum | null) =>
  useQuery({
    queryKey: codingKeys.population(source, stratum),
    queryFn: () => skein().coding.population({ source, ...(stratum ? { stratum } : {}) }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });

export const optOutsQuery = () =>
  queryOptions({ queryKey: codingKeys.optOuts(), queryFn: () => skein().coding.optOuts(), staleTime: 0 });
export const modelEndpointQuery = () =>
  queryOptions({ queryKey: codingKeys.modelEndpoint(), queryFn: () => skein().coding.modelEndpoint(), staleTime: 0 });
export const pseudonymKeyQuery = () =>
  queryOptions({ queryKey: codingKeys.pseudonymKey(), queryFn: () => skein().coding.pseudonymKey(), staleTime: 0 });
export const citationQuery = () =>
  queryOptions({ queryKey: codingKeys.citation(), queryFn: () => skein().coding.citation(), staleTime: 0 });

/** Model runs, asked again every half second while one runs. */
export const useModelRuns = () =>
  useQuery({
    queryKey: codingKeys.modelRuns(),
    queryFn: () => skein().coding.modelRuns(),
    refetchInterval: (q) => (q.state.data?.some((r) => r.status === 'running') ? 500 : false),
    staleTime: 0,
  });

/** A mutation that refreshes the whole workbench after it (coding data is small and local). */
function useCodingMutation<I, O>(run: (input: I) => Promise<O>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: () => client.invalidateQueries({ queryKey: codingKeys.all }),
  });
}

/** the person at this computer codes as `coder` from now on (main records a change) */
export const useSetCoderHere = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (coder: number) => skein().coding.setCoderHere({ coder }),
    onSuccess: (here) => client.setQueryData(codingKeys.coderHere(), here),
  });
};

export const useSaveCodebook = () =>
  useCodingMutation((input: { id?: number; name: string; definition: CodebookDefinitionInput; note?: string }) =>
    skein().coding.saveCodebook(input),
  );
export const useAddCoder = () =>
  useCodingMutation((input: { name: string; kind: 'person' | 'model'; model?: ModelSettingsInput }) =>
    skein().coding.addCoder(input),
  );
export const useUpdateCoder = () =>
  useCodingMutation((input: { id: number; name?: string; model?: ModelSettingsInput }) =>
    skein().coding.updateCoder(input),
  );
export const useReveal = () => useCodingMutation((coder: number) => skein().coding.reveal({ coder }));
export const useDrawSample = () => useCodingMutation((input: DrawSampleRequest) => skein().coding.drawSample(input));
export const useAdjudicate = () =>
  useCodingMutation(
    (input: {
      codebook: number;
      kind: CodedKind;
      id: string;
      field: string;
      value: CodeValue | null;
      decidedBy: string;
    }) => skein().coding.adjudicate(input),
  );
export const useOptOut = () => useCodingMutation((account: string) => skein().coding.optOut({ account }));
export const useOptIn = () => useCodingMutation((account: string) => skein().coding.optIn({ account }));
export const useSetModelEndpoint = () =>
  useCodingMutation((input: { kind: 'none' | 'demo' | 'custom'; baseUrl?: string; key?: string }) =>
    skein().coding.setModelEndpoint(input),
  );
export const useClearModelKey = () => useCodingMutation(() => skein().coding.clearModelKey());
export const useRunModel = () =>
  useCodingMutation((input: { codebook: number; sample: number; coder: number }) => skein().coding.runModel(input));
export const useCancelModelRun = () => useCodingMutation((id: string) => skein().coding.cancelModelRun({ id }));
export const useSetPseudonymKey = () =>
  useCodingMutation((key?: string) => skein().coding.setPseudonymKey(key ? { key } : {}));
export const useClearPseudonymKey = () => useCodingMutation(() => skein().coding.clearPseudonymKey());

/** A value set (or cleared) by the coder; the queue and values shown are refreshed. */
export const useCode = () =>
  useCodingMutation(
    (input: { codebook: number; coder: number; kind: CodedKind; id: string; field: string; value: CodeValue | null }) =>
      skein().coding.code(input),
  );

type Scope = { codebook: number; sample?: number };
export const useExport = () =>
  useMutation({
    mutationFn: (
      what:
        | { kind: 'annotations'; scope: Scope }
        | { kind: 'qdpx'; scope: Scope }
        | { kind: 'recal'; scope: Scope; field: string }
        | { kind: 'codebook'; codebook: number; format: 'qdc' | 'csv' },
    ) => {
      switch (what.kind) {
        case 'annotations':
          return skein().coding.exportAnnotations(what.scope);
        case 'qdpx':
          return skein().coding.exportQdpx(what.scope);
        case 'recal':
          return skein().coding.exportRecal({ ...what.scope, field: what.field });
        case 'codebook':
          return skein().coding.exportCodebook({ codebook: what.codebook, format: what.format });
      }
    },
  });

/** a package asked for: of a coded sample, or of a collection of the project */
type PackagesAsked = { review: boolean; rehydration: boolean; includeTexts: boolean };
export type ShareAsk =
  ({ of: 'sample' } & ShareInput & PackagesAsked) | ({ of: 'collection' } & ShareCollectionInput & PackagesAsked);

export const useSharePackage = () => {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (ask: ShareAsk) => {
      if (ask.of === 'sample') {
        const { of: _sample, ...input } = ask;
        return skein().coding.sharePackage(input);
      }
      const { of: _collection, ...input } = ask;
      return skein().coding.shareCollection(input);
    },
    onSuccess: () => client.invalidateQueries({ queryKey: codingKeys.citation() }),
  });
};

/** Shows a file Skein wrote in the system's file manager (where the window can: the app, not a browser). */
export const useShowInFolder = () =>
  useMutation({ mutationFn: (file: string) => skein().coding.showInFolder({ file }) });

/** base64 of bytes, in slices the bridge takes */
function base64(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/** Sends a picked file to main in slices, then has it read: a `.qdpx`, `.qdc` or codebook CSV. */
export const useImportFile = () =>
  useCodingMutation(async (input: { file: File; codebook?: number }) => {
    const name = input.file.name;
    const kind: UploadKind = /\.qdpx$/i.test(name) ? 'qdpx' : /\.qdc$/i.test(name) ? 'qdc' : 'codebook-csv';
    const bytes = new Uint8Array(await input.file.arrayBuffer());
    const { upload } = await skein().coding.uploadBegin({ kind, name, size: bytes.length });
    // three bytes make four base64 characters
    const slice = Math.floor(MAX_UPLOAD_SLICE / 4) * 3;
    for (let i = 0; i < bytes.length; i += slice)
      await skein().coding.uploadAppend({ upload, base64: base64(bytes.subarray(i, i + slice)) });
    return skein().coding.uploadFinish({
      upload,
      ...(input.codebook !== undefined ? { codebook: input.codebook } : {}),
    });
  });
