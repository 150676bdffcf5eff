/** Which file is kept for a post's media: the photo's original size, the video's best MP4. */
import { describe, expect, it } from 'vitest';
import { bestVariant, originalPhotoUrl } from './plan';

describe('the photo at its largest size', () => {
  it.each([
    ['https://pbs.twimg.com/media/Abc.jpg', 'https://pbs.twimg.com/media/Abc.jpg?name=orig'],
    ['https://pbs.twimg.com/media/Abc?format=jpg&name=small', 'https://pbs.twimg.com/media/Abc?format=jpg&name=orig'],
    ['https://pbs.twimg.com/media/Abc.jpg:large', 'https://pbs.twimg.com/media/Abc.jpg?name=orig'],
    // another host's address is kept as it is: its sizes are its own
    ['https://cdn.example/a.jpg?w=200', 'https://cdn.example/a.jpg?w=200'],
    ['not a url', 'not a url'],
  ])('%s → %s', (from, to) => expect(originalPhotoUrl(from)).toBe(to));
});

describe('the best video variant', () => {
  const variants = [
    { content_type: 'application/x-mpegURL', url: 'https://v.example/a.m3u8' },
    { bitrate: 832_000, content_type: 'video/mp4', url: 'https://v.example/832.mp4' },
    { bitrate: 2_176_000, content_type: 'video/mp4', url: 'https://v.example/2176.mp4' },
    { bitrate: 256_000, content_type: 'video/mp4', url: 'https://v.example/256.mp4' },
  ];

  it('is the MP4 of the highest bitrate, never the HLS playlist', () => {
    expect(bestVariant(variants)?.url).toBe('https://v.example/2176.mp4');
  });

  it('is the highest at or under a chosen maximum, else the smallest', () => {
    expect(bestVariant(variants, 1_000_000)?.url).toBe('https://v.example/832.mp4');
    expect(bestVariant(variants, 100_000)?.url).toBe('https://v.example/256.mp4');
  });

  it("is a GIF's one MP4 at bitrate 0, and nothing when there is no MP4", () => {
    expect(bestVariant([{ bitrate: 0, content_type: 'video/mp4', url: 'https://v.example/g.mp4' }])?.url).toBe(
      'https://v.example/g.mp4',
    );
    expect(bestVariant([variants[0]])).toBeUndefined();
    expect(bestVariant('nonsense')).toBeUndefined();
  });
});
