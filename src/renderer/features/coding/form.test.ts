import { describe, expect, it } from 'vitest';
import type { Coder } from '../../../shared/coding/records';
import type { Citation, ModelEndpoint } from '../../../shared/ipc/coding';
import {
  citationInput,
  drawRequest,
  endpointFields,
  endpointRequest,
  modelCoderFields,
  modelSettings,
  newSample,
  representsWords,
  sampleProblem,
  sampleSource,
  shareFields,
  shareProblem,
  shareCollectionRequest,
  shareRequest,
  stratumShare,
  withCoder,
  type SampleFields,
} from './form';

const sample = (change: Partial<SampleFields> = {}): SampleFields => ({ ...newSample('heron-12'), ...change });

describe('drawing a sample', () => {
  it('starts as 100 posts stratified by day, 20 % double-coded, with the seed it was given', () => {
    expect(drawRequest(sample({ coders: [1] }), 7)).toEqual({
      codebook: 7,
      name: 'Sample 1',
      source: { kind: 'post', text: '' },
      size: 100,
      seed: 'heron-12',
      method: 'stratified',
      stratum: 'day',
      coders: [1],
      overlap: 0.2,
    });
  });

  it('draws from the words, author and collection given, an @ before the handle left out', () => {
    expect(sampleSource(sample({ text: ' vote ', author: ' @Ada ', collection: '3', kind: 'user' }))).toEqual({
      kind: 'user',
      text: 'vote',
      author: 'Ada',
      collection: 3,
    });
  });

  it('sends a random draw without a stratum, a nameless one as "Sample", a size that is not a number as 0', () => {
    const request = drawRequest(sample({ method: 'random', name: '  ', size: 'many', overlap: 'x', coders: [2] }), 1);
    expect(request).not.toHaveProperty('stratum');
    expect(request).toMatchObject({ name: 'Sample', size: 0, overlap: 0, method: 'random' });
  });

  it('says in words why it cannot be drawn', () => {
    expect(sampleProblem(sample(), 500)).toBe('Assign the sample to at least one coder.');
    expect(sampleProblem(sample({ coders: [1] }), 0)).toBe('The source holds nothing to draw from.');
    expect(sampleProblem(sample({ coders: [1], size: '0' }), 500)).toBe('Give a size of at least 1.');
    expect(sampleProblem(sample({ coders: [1] }), 500)).toBeNull();
  });

  it('adds and takes away coders', () => {
    expect(withCoder([1], 2, true)).toEqual([1, 2]);
    expect(withCoder([1, 2], 1, false)).toEqual([2]);
  });

  it('says what the sample represents, and how it is dealt out among coders', () => {
    expect(representsWords(sample(), undefined)).toBe('Counting…');
    expect(representsWords(sample({ coders: [1] }), { label: 'the whole project', total: 400 })).toBe(
      'The source, the whole project, holds 400 posts. 100 of them is 25.0 %; a share measured on it is within ±8.5 points (95 %).',
    );
    expect(representsWords(sample({ coders: [1, 2], kind: 'user' }), { label: 'collection “a”', total: 50 })).toBe(
      'The source, collection “a”, holds 50 accounts. 50 of them is 100.0 %; a share measured on it is within ±0.0 points (95 %). 10 double-coded by all 2 coders, the rest dealt out: about 30 each.',
    );
    expect(representsWords(sample(), { label: 'nothing', total: 0 })).toBe(
      'The source, nothing, holds 0 posts. 0 of them is 0 %.',
    );
  });

  it('gives each stratum its share of the sample', () => {
    expect(stratumShare(30, 100, 400)).toBe(8);
    expect(stratumShare(30, 100, 0)).toBe(0);
  });
});

describe('the share-and-cite package', () => {
  const saved: Citation = {
    title: 'Vote talk',
    authors: [
      { familyNames: 'Example', givenNames: 'Ana', orcid: '0000-0002-1825-0097' },
      { familyNames: 'Lovelace', givenNames: 'Ada' },
    ],
    description: 'Posts about the vote.',
    keywords: ['vote', 'elections'],
    license: 'CC0-1.0',
    version: '2.0',
    publisher: '',
  };

  it('starts from the last citation: the package for review only, without texts', () => {
    expect(shareFields(saved)).toEqual({
      of: 'sample',
      collection: '',
      review: true,
      rehydration: false,
      texts: false,
      publicFigures: '',
      title: 'Vote talk',
      authors: 'Example, Ana; 0000-0002-1825-0097\nLovelace, Ada',
      description: 'Posts about the vote.',
      keywords: 'vote, elections',
      license: 'CC0-1.0',
      version: '2.0',
    });
    expect(shareFields(null)).toMatchObject({ title: '', authors: '', license: 'CC-BY-4.0', version: '1.0' });
  });

  it('reads the citation back as it was written', () => {
    expect(citationInput(shareFields(saved))).toEqual({
      title: 'Vote talk',
      authors: [
        { familyNames: 'Example', givenNames: 'Ana', orcid: '0000-0002-1825-0097' },
        { familyNames: 'Lovelace', givenNames: 'Ada' },
      ],
      description: 'Posts about the vote.',
      keywords: ['vote', 'elections'],
      license: 'CC0-1.0',
      version: '2.0',
    });
  });

  it('fills what is left empty: a title, the licence, the version; a name without a comma is a family name', () => {
    const c = citationInput({ ...shareFields(null), authors: 'Plato\n\n', license: ' ', version: '' });
    expect(c).toMatchObject({ title: 'Coded sample', license: 'CC-BY-4.0', version: '1.0' });
    expect(c.authors).toEqual([{ familyNames: 'Plato', givenNames: '' }]);
  });

  it('says in words why it cannot be made', () => {
    expect(shareProblem(shareFields(saved), null)).toBe('Choose a sample first.');
    // a collection needs no sample, only to be chosen
    expect(shareProblem(shareFields(saved, 'collection'), null)).toBe('Choose a collection first.');
    expect(shareProblem({ ...shareFields(saved, 'collection'), collection: '3' }, null)).toBeNull();
    // a collection too big to pseudonymise is said before the click, with the way on
    const big = { ...shareFields(saved, 'collection'), collection: '3' };
    expect(shareProblem(big, null, true, 100_001)).toMatch(/^A package for review holds at most 100,000 items/);
    expect(shareProblem({ ...big, review: false, rehydration: true }, null, true, 100_001)).toBeNull();
    expect(shareProblem(shareFields(null), 4)).toBe('Name at least one author.');
    expect(shareProblem(shareFields(saved), 4)).toBeNull();
    // pseudonymising with no key is said before the click, not refused after it
    expect(shareProblem(shareFields(saved), 4, false)).toMatch(/^Pseudonymising needs a key/);
    // the package for re-hydration pseudonymises nothing: it needs no key
    expect(shareProblem({ ...shareFields(saved), review: false, rehydration: true }, 4, false)).toBeNull();
    expect(shareProblem({ ...shareFields(saved), review: false, rehydration: false }, 4)).toMatch(/^Choose a package/);
  });

  it('asks for a collection’s packages by its id, with no codebook or sample; its untitled citation says what it is', () => {
    const fields = { ...shareFields(null, 'collection'), collection: '12', authors: 'Example, Ana', rehydration: true };
    expect(shareCollectionRequest(fields)).toEqual({
      collection: 12,
      review: true,
      rehydration: true,
      includeTexts: false,
      citation: expect.objectContaining({ title: 'Collected dataset' }),
    });
    expect(citationInput(shareFields(null)).title).toBe('Coded sample');
  });

  it('lets public figures keep their names only above a whole number of followers', () => {
    const fields = { ...shareFields(saved), texts: true };
    expect(shareRequest({ ...fields, publicFigures: '10000' }, 1, 4)).toMatchObject({
      codebook: 1,
      sample: 4,
      review: true,
      rehydration: false,
      includeTexts: true,
      publicFigureFollowers: 10000,
    });
    // texts ride only in the package for review
    expect(shareRequest({ ...fields, review: false, rehydration: true }, 1, 4)).toMatchObject({
      rehydration: true,
      includeTexts: false,
    });
    expect(shareRequest({ ...fields, publicFigures: '0' }, 1, 4)).not.toHaveProperty('publicFigureFollowers');
    expect(shareRequest({ ...fields, publicFigures: 'many' }, 1, 4)).not.toHaveProperty('publicFigureFollowers');
  });
});

describe('a model coder and its endpoint', () => {
  it('starts a new model coder on the demo stand-in, at temperature 0', () => {
    expect(modelCoderFields()).toEqual({ name: 'Model', model: 'skein-standin-1', temperature: '0', prompts: {} });
  });

  it('starts from a coder’s settings, and stores a temperature that is not a number as 0', () => {
    const coder = {
      id: 3,
      name: 'Llama',
      kind: 'model',
      model: { model: 'llama3.1:8b', temperature: 0.7, maxTokens: 64, prompts: { stance: 'Stance?' } },
    } as unknown as Coder;
    const fields = modelCoderFields(coder);
    expect(fields).toEqual({ name: 'Llama', model: 'llama3.1:8b', temperature: '0.7', prompts: { stance: 'Stance?' } });
    expect(modelSettings({ ...fields, temperature: 'warm' })).toEqual({
      model: 'llama3.1:8b',
      temperature: 0,
      prompts: { stance: 'Stance?' },
    });
  });

  it('points a new endpoint at a local Ollama, and sends a URL and key only for an endpoint of one’s own', () => {
    expect(endpointFields(undefined)).toEqual({ kind: 'none', baseUrl: 'http://localhost:11434/v1', key: '' });
    const saved = { kind: 'custom', baseUrl: 'https://llm.example/v1', key: { configured: true } } as ModelEndpoint;
    expect(endpointFields(saved)).toMatchObject({ kind: 'custom', baseUrl: 'https://llm.example/v1', key: '' });
    expect(endpointRequest({ kind: 'demo', baseUrl: 'http://x/v1', key: 'k' })).toEqual({ kind: 'demo' });
    expect(endpointRequest({ kind: 'custom', baseUrl: 'http://x/v1', key: ' ' })).toEqual({
      kind: 'custom',
      baseUrl: 'http://x/v1',
    });
    expect(endpointRequest({ kind: 'custom', baseUrl: 'http://x/v1', key: 'sk-1' })).toEqual({
      kind: 'custom',
      baseUrl: 'http://x/v1',
      key: 'sk-1',
    });
  });
});
