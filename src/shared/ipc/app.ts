import { z } from 'zod';
import { fn } from './define';
import { ArchiveNotice } from './archive';
import { ExportJob } from './export';
import { WatchEvent } from './watch';

export const Mode = z.enum(['demo', 'live']);
export type Mode = z.infer<typeof Mode>;

export const AppInfo = z.object({
  name: z.string(),
  version: z.string(),
  mode: Mode,
  platform: z.string(),
});
export type AppInfo = z.infer<typeof AppInfo>;

/** Showcase entities of the embedded sandbox (demo Home); null in live mode. */
export const DemoExamples = z.object({
  bigThreadPostId: z.string(),
  /** a conversation of another shape: most replies answer the post itself */
  wideThreadPostId: z.string(),
  muchQuotedPostId: z.string(),
  mediaPostId: z.string(),
  profile: z.object({ id: z.string(), userName: z.string() }),
  communityId: z.string(),
  listId: z.string(),
  /** the list's name as the demo world knows it (the API has no operation that names a list) */
  listName: z.string().max(200).optional(),
  runningSpaceId: z.string(),
  endedSpaceId: z.string(),
  /** a space not started yet (the live service answers 404 for one) */
  scheduledSpaceId: z.string(),
});
export type DemoExamples = z.infer<typeof DemoExamples>;

/**
 * How a link from data (which a hostile server controls) may leave Skein: `https:` opens; `http:` only after the
 * user says yes in main's own dialog; a link carrying `user:password@` (which
 * makes `https://bank.example:pw@evil.example` look like the bank) and any
 * other scheme never open.
 */
export function linkVerdict(url: string): 'https' | 'http' | 'refused' {
  try {
    const u = new URL(url);
    if (u.username !== '' || u.password !== '') return 'refused';
    if (u.protocol === 'https:') return 'https';
    if (u.protocol === 'http:') return 'http';
    return 'refused';
  } catch {
    return 'refused';
  }
}

export const ExternalUrl = z
  .string()
  .max(4096)
  .refine(
    (u) => linkVerdict(u) !== 'refused',
    'only https: (and, once confirmed, http:) links without a user name or password open outside Skein',
  );

export const appContract = {
  app: {
    info: fn(z.undefined(), AppInfo),
    /** `opened: false` with `refused` saying why in plain words (an http: link the user did not confirm) */
    openExternal: fn(z.object({ url: ExternalUrl }), z.object({ opened: z.boolean(), refused: z.string().optional() })),
  },
  demo: {
    examples: fn(z.undefined(), DemoExamples.nullable()),
  },
};

/** Commands sent from main's native menu to the renderer. */
export const MenuCommand = z.enum(['back', 'forward', 'export', 'focus-go', 'open-settings', 'open-usage']);
export type MenuCommand = z.infer<typeof MenuCommand>;

/** Events main may push to the renderer. */
export const events = {
  menu: MenuCommand,
  /** an export job changed (progress, status) */
  export: ExportJob,
  /** a watch ran, changed, or its runner did (so the Watches view refreshes without polling) */
  watch: WatchEvent,
  /** the project's store met something on its own (a team's server away, answers kept, written again) */
  archive: ArchiveNotice,
} as const;
export type EventName = keyof typeof events;
export type EventPayload<E extends EventName> = z.infer<(typeof events)[E]>;
