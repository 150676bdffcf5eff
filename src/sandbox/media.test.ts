/** Media files served by the sandbox itself, matching what posts declare. */
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { SpecPost } from '../shared/api';
import { imageSpec, MEDIA_KINDS, pngImage } from './media';
import { qs, useSandbox, walk } from './test-utils';

const sandbox = useSandbox();

describe('media', () => {
  it("a post's image is a PNG of the declared size, in the declared palette", async () => {
    const c = sandbox();
    const post = (
      await c.get<{ tweets: SpecPost[] }>(`/social/tweets${qs({ tweet_ids: c.sandbox.examples.mediaPostId })}`)
    ).json.tweets[0] as SpecPost;
    const info = post.entities?.media?.[0]?.media_results.result.media_info;
    expect(info?.original_img_url.startsWith(`${c.sandbox.baseUrl}/media/`)).toBe(true);
    const res = await fetch(info?.original_img_url as string);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toMatch(/immutable/);
    const png = Buffer.from(await res.arrayBuffer());
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(png.readUInt32BE(16)).toBe(info?.original_img_width);
    expect(png.readUInt32BE(20)).toBe(info?.original_img_height);
    const plte = png.indexOf('PLTE');
    const first = info?.color_info?.palette[0]?.rgb;
    expect([...png.subarray(plte + 4, plte + 7)]).toEqual([first?.red, first?.green, first?.blue]);
  });

  it("avatars in the data are small PNGs, like the live service's raster pictures", async () => {
    const c = sandbox();
    const ex = c.sandbox.examples;
    const { json } = await c.get<{ users: Array<{ profilePicture: string }> }>(
      `/social/user/batch_info_by_ids${qs({ userIds: ex.profile.id })}`,
    );
    const picture = json.users[0]?.profilePicture as string;
    expect(picture).toBe(`${c.sandbox.baseUrl}/media/avatar-${ex.profile.id}.png`);
    const res = await fetch(picture);
    expect(res.headers.get('content-type')).toBe('image/png');
    const png = Buffer.from(await res.arrayBuffer());
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([128, 128]);
  });

  it('an avatar is also served as SVG with initials; covers and banners are served; the same name gives the same bytes', async () => {
    const c = sandbox();
    const ex = c.sandbox.examples;
    const svg = await fetch(`${c.sandbox.baseUrl}/media/avatar-${ex.profile.id}.svg`);
    expect(svg.headers.get('content-type')).toBe('image/svg+xml');
    const text = await svg.text();
    expect(text).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(text).not.toMatch(/<script/);
    const a = Buffer.from(await (await fetch(`${c.sandbox.baseUrl}/media/cover-${ex.profile.id}.png`)).arrayBuffer());
    const b = Buffer.from(await (await fetch(`${c.sandbox.baseUrl}/media/cover-${ex.profile.id}.png`)).arrayBuffer());
    expect(a.equals(b)).toBe(true);
    expect((await fetch(`${c.sandbox.baseUrl}/media/banner-${ex.communityId}.png`)).status).toBe(200);
  });

  it('every PNG decodes to colour bands in the palette order, one palette index per pixel, whatever its size', () => {
    for (const kind of MEDIA_KINDS) {
      for (const id of ['1', '77', '123456789012345678']) {
        const spec = imageSpec(7, kind, id);
        const png = pngImage(spec);
        const at = (type: string): Buffer => {
          const i = png.indexOf(type);
          return png.subarray(i + 4, i + 4 + png.readUInt32BE(i - 4));
        };
        const raw = inflateSync(at('IDAT')); // zlib checks the stream's Adler-32 too
        const stride = spec.width + 1;
        expect(raw.length).toBe(stride * spec.height);
        const first = raw.subarray(1, stride);
        expect(raw[0]).toBe(0);
        // bands: indices never go down, every palette entry is used, widths follow the percentages
        for (let x = 1; x < first.length; x++) expect(first[x]! - first[x - 1]!).toBeGreaterThanOrEqual(0);
        spec.palette.forEach((p, i) => {
          const share = first.filter((v) => v === i).length / spec.width;
          expect(Math.abs(share - p.percentage / 100)).toBeLessThan(0.02);
        });
        // every later row: "Up" filter, no change
        for (const y of [1, Math.floor(spec.height / 2), spec.height - 1]) {
          const r = raw.subarray(y * stride, (y + 1) * stride);
          expect(r[0]).toBe(2);
          expect(r.subarray(1).every((v) => v === 0)).toBe(true);
        }
        expect(at('PLTE').length).toBe(3 * spec.palette.length);
      }
    }
  });

  it('unknown names are 404', async () => {
    const c = sandbox();
    for (const name of ['x.png', 'img-1.gif', 'img-../../etc.png', 'video-1.png']) {
      expect((await fetch(`${c.sandbox.baseUrl}/media/${name}`)).status).toBe(404);
    }
  });
});

interface Extended {
  type: string;
  media_key: string;
  media_url_https: string;
  video_info?: { variants: { bitrate?: number; content_type: string; url: string }[] };
}

describe('videos and GIFs', () => {
  it('posts describe photos, videos and GIFs in extendedEntities, and every MP4 variant is served', async () => {
    const c = sandbox();
    const media: Extended[] = [];
    await walk(
      c,
      '/social/user/tweet_timeline',
      { userId: c.sandbox.examples.profile.id },
      {
        maxPages: 30,
        onPage: (page) => {
          for (const p of ((page.data as { tweets?: unknown[] } | undefined)?.tweets ?? page.tweets ?? []) as {
            extendedEntities?: { media?: Extended[] };
          }[])
            media.push(...(p.extendedEntities?.media ?? []));
        },
      },
    );
    const kinds = new Set(media.map((m) => m.type));
    expect(kinds).toEqual(new Set(['photo', 'video', 'animated_gif']));
    const video = media.find((m) => m.type === 'video') as Extended;
    const gif = media.find((m) => m.type === 'animated_gif') as Extended;
    const mp4s = video.video_info?.variants.filter((v) => v.content_type === 'video/mp4') ?? [];
    expect(mp4s.map((v) => v.bitrate)).toEqual([256_000, 832_000, 2_176_000]);
    expect(video.video_info?.variants.find((v) => v.bitrate === undefined)?.content_type).toBe('application/x-mpegURL');
    expect(gif.video_info?.variants).toEqual([expect.objectContaining({ bitrate: 0, content_type: 'video/mp4' })]);

    await fetch(`${c.sandbox.baseUrl}/__sandbox/media-requests`, { method: 'DELETE' });
    const sizes: number[] = [];
    for (const v of [...mp4s, ...(gif.video_info?.variants ?? [])]) {
      const res = await fetch(v.url);
      expect(res.headers.get('content-type')).toBe('video/mp4');
      const bytes = Buffer.from(await res.arrayBuffer());
      expect(bytes.subarray(4, 8).toString('ascii')).toBe('ftyp');
      sizes.push(bytes.length);
    }
    // the best variant is the largest file; the same name is the same bytes
    expect(sizes[2]).toBeGreaterThan(sizes[1] as number);
    expect(sizes[1]).toBeGreaterThan(sizes[0] as number);
    const again = Buffer.from(await (await fetch(mp4s[0]?.url as string)).arrayBuffer());
    expect(again.length).toBe(sizes[0]);
    // the photo's thumbnail, a PNG, at media_url_https
    expect((await fetch(video.media_url_https)).headers.get('content-type')).toBe('image/png');

    const log = (await (await fetch(`${c.sandbox.baseUrl}/__sandbox/media-requests`)).json()) as {
      requests: { url: string; status: number }[];
    };
    expect(log.requests).toHaveLength(6);
    expect(log.requests.filter((r) => r.url === new URL(mp4s[0]?.url as string).pathname)).toHaveLength(2);
    expect(log.requests.every((r) => r.status === 200)).toBe(true);
  });

  it('a video name the posts never carry is not found', async () => {
    const c = sandbox();
    expect((await fetch(`${c.sandbox.baseUrl}/media/vid-123-999.mp4`)).status).toBe(404);
  });
});
