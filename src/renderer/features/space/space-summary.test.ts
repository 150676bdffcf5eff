import { describe, expect, it } from 'vitest';
import { spaceFixture } from '../../../shared/api/fixtures';
import type { AudioSpace } from '../../../shared/api/schemas';
import { formatDuration, summarizeSpace, updatedAgo } from './space-summary';

const base = spaceFixture.data.audio_space_by_rest_id;
const withMeta = (extra: Record<string, unknown>): AudioSpace => ({
  ...base,
  metadata: { ...base.metadata, ...extra },
});

describe('summarizeSpace', () => {
  it('reads a running space as live, with its duration so far, host and counts', () => {
    const s = summarizeSpace(withMeta({ title: 'Office hours' }), base.metadata.start + 83 * 60_000);
    expect(s.title).toBe('Office hours');
    expect(s.stateLabel).toBe('Live');
    expect(s.live).toBe(true);
    expect(formatDuration(s.durationMs ?? -1)).toBe('1 h 23 min');
    expect(s.host).toEqual({ id: '99', name: 'Host', handle: 'host', avatarUrl: 'https://img.example/a.png' });
    expect(s.counts).toEqual({ admins: 1, speakers: 0, listeners: 0, liveListeners: 1, participated: 1, replays: 0 });
    expect(s.pollIntervalSec).toBe(5);
  });

  it('measures an ended space to its end, not to now, and is not live', () => {
    const end = base.metadata.start + 90 * 60_000;
    const s = summarizeSpace(withMeta({ state: 'Ended', ended_at: String(end) }), end + 86_400_000);
    expect(s.live).toBe(false);
    expect(s.stateLabel).toBe('Ended');
    expect(s.ended).toBe(end);
    expect(s.durationMs).toBe(90 * 60_000);
  });

  it('has no duration for a scheduled space and a readable label for unknown states', () => {
    const s = summarizeSpace(withMeta({ state: 'NotStarted', start: base.metadata.start + 1e6 }), base.metadata.start);
    expect(s.stateLabel).toBe('Scheduled');
    expect(s.durationMs).toBeNull();
    expect(summarizeSpace(withMeta({ state: 'PrivateRecording' }), 0).stateLabel).toBe('Private recording');
    expect(summarizeSpace(withMeta({ title: '   ' }), 0).title).toBe('Untitled space');
  });
});

describe('time labels', () => {
  it('formats durations and freshness the way people say them', () => {
    expect(formatDuration(42_000)).toBe('42 s');
    expect(formatDuration(5 * 60_000 + 10_000)).toBe('5 min');
    expect(formatDuration(2 * 3_600_000)).toBe('2 h');
    expect(formatDuration(51 * 3_600_000)).toBe('2 d 3 h');
    expect(updatedAgo(1000, 1500)).toBe('updated just now');
    expect(updatedAgo(1000, 5000)).toBe('updated 4 s ago');
    expect(updatedAgo(0, 125_000)).toBe('updated 2 min ago');
  });
});
