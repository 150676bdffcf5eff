import { describe, expect, it } from 'vitest';
import { postMedia } from './media';

const specMedia = (id: string, alt: string | null) => ({
  display_url: 'pic/1',
  expanded_url: `https://x.example/a/status/1/photo/${id}`,
  features: {},
  id_str: id,
  indices: [0, 1],
  url: 'https://t.co/m',
  media_results: {
    id: `m${id}`,
    result: {
      __typename: 'ApiMedia',
      id: `m${id}`,
      media_availability_v2: { status: 'Available' },
      media_id: id,
      media_info: {
        __typename: 'ApiImage',
        alt_text: alt,
        original_img_url: `https://img.example/${id}.jpg`,
        original_img_width: 1200,
        original_img_height: 800,
      },
    },
  },
});

describe('postMedia', () => {
  it('reads the spec shape with alt text and original size', () => {
    expect(postMedia({ entities: { media: [specMedia('5', 'A cat on a mat')] } })).toEqual([
      {
        id: '5',
        kind: 'photo',
        src: 'https://img.example/5.jpg',
        original: 'https://img.example/5.jpg',
        width: 1200,
        height: 800,
        alt: 'A cat on a mat',
        href: 'https://x.example/a/status/1/photo/5',
      },
    ]);
  });
  it('reads the live extendedEntities shape, and lists an item found in both once', () => {
    const items = postMedia({
      entities: { media: [specMedia('5', null)] },
      extendedEntities: {
        media: [
          {
            id_str: '5',
            type: 'photo',
            media_url_https: 'https://pbs.example/5.jpg',
            original_info: { width: 10, height: 20 },
            ext_alt_text: 'alt',
          },
          { id_str: '6', type: 'video', media_url_https: 'https://pbs.example/6.jpg' },
        ],
      },
    });
    expect(items.map((m) => [m.id, m.kind, m.alt, m.original])).toEqual([
      ['5', 'photo', 'alt', 'https://pbs.example/5.jpg?name=orig'],
      ['6', 'video', null, 'https://pbs.example/6.jpg?name=orig'],
    ]);
  });
  it('ignores unreadable entries and missing media', () => {
    expect(postMedia({ entities: { media: [{ nope: 1 }, 'x'] } })).toEqual([]);
    expect(postMedia({ entities: null })).toEqual([]);
  });
});
