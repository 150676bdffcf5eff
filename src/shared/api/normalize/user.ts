/** Tolerant reader of a user object (search results, batch lookups, post authors). */
import { UrlEntity } from '../schemas';
import { bool, idString, isObject, nullableString, str, toInt, validatorOf, type Obj } from './values';

const validUrl = validatorOf(UrlEntity);

/**
 * Every field is read with a fallback ("" or null for what cannot be read), so a user is refused only when
 * its own id cannot be read (a deleted post's `author: {}`).
 */
export function normalizeUser(v: unknown): unknown {
  if (!isObject(v)) return v;
  const u: Obj = { ...v };
  u.type = 'user';
  u.id = userId(u);
  u.userName = userHandle(u);
  u.name = str(u.name, '');
  u.url = str(u.url, '');
  u.isBlueVerified = bool(u.isBlueVerified, false);
  u.description = str(u.description, '');
  u.location = nullableString(u.location);
  u.followers = toInt(u.followers) ?? null;
  u.following = toInt(u.following) ?? null;
  u.statusesCount = toInt(u.statusesCount) ?? null;
  u.createdAt = str(u.createdAt, '');
  u.profilePicture = str(u.profilePicture, '');
  u.coverPicture = nullableString(u.coverPicture);
  u.canDm = bool(u.canDm, false);
  u.pinnedTweetIds = pinnedIds(u.pinnedTweetIds);
  u.profile_bio = profileBio(u.profile_bio);
  // the live service may leave `description` empty and keep the bio in `profile_bio` only
  if (u.description === '' && isObject(u.profile_bio) && typeof u.profile_bio.description === 'string')
    u.description = u.profile_bio.description;
  const automation = readAutomation(v);
  u.isAutomated = automation.isAutomated;
  u.automatedBy = automation.automatedBy;
  return u;
}

/** the handle: the first of `userName`, `screen_name`, `username` that is not empty; "" when none is */
export function userHandle(u: Obj): string {
  return [u.userName, u.screen_name, u.username].map((x) => str(x, '').trim()).find((x) => x !== '') ?? '';
}

/** the first of `id`, `id_str`, `rest_id` that reads as an id (else what was there, which the schema refuses) */
export function userId(u: Obj): unknown {
  const candidates = [u.id, u.id_str, u.rest_id].filter((x) => x !== undefined && x !== null && x !== '');
  for (const c of candidates) {
    const id = idString(c);
    if (typeof id === 'string' && /^\d+$/.test(id)) return id;
  }
  return idString(candidates[0] ?? u.id);
}

const HANDLE = /^@?([A-Za-z0-9_]{1,50})$/;

/**
 * Whether an account says it is automated (api-field-notes.md, "Round 2"): `isAutomated: true`,
 * `automatedBy: "<handle>"` (else null or ""), and a label `affiliatesHighlightedLabel.label` of type
 * `AutomatedLabel` whose long description reads "Automated by @…".
 */
export function readAutomation(v: unknown): { isAutomated: boolean; automatedBy: string | null } {
  if (!isObject(v)) return { isAutomated: false, automatedBy: null };
  const label = isObject(v.affiliatesHighlightedLabel) ? v.affiliatesHighlightedLabel.label : null;
  const labelled = isObject(label) && label.user_label_type === 'AutomatedLabel';
  const isAutomated = bool(v.isAutomated, false) || labelled;
  const by = typeof v.automatedBy === 'string' ? HANDLE.exec(v.automatedBy.trim())?.[1] : undefined;
  if (by) return { isAutomated: true, automatedBy: by };
  if (labelled && isObject(label.long_description) && typeof label.long_description.text === 'string') {
    const named = /@([A-Za-z0-9_]{1,50})/.exec(label.long_description.text)?.[1];
    if (named) return { isAutomated: true, automatedBy: named };
  }
  return { isAutomated, automatedBy: null };
}

/** ids as the spec spells them; the list itself when it already is (a reader never changes it, so it can be shared) */
function pinnedIds(v: unknown): unknown[] {
  if (!Array.isArray(v)) return [];
  for (let i = 0; i < v.length; i++) {
    const x: unknown = v[i];
    if (typeof x !== 'string' || x.trim() !== x) return v.map((y) => idString(y)).filter((y) => typeof y === 'string');
  }
  return v;
}

/** whether `profileBio` would give back a copy equal to `bio` (its entities are as the spec has them) */
function bioAsIs(bio: Obj): boolean {
  const e = bio.entities;
  if (!isObject(e)) return !Object.hasOwn(bio, 'entities');
  if (e.description !== undefined && !isObject(e.description)) return false;
  const url = e.url;
  if (!isObject(url)) return !Object.hasOwn(e, 'url');
  return Array.isArray(url.urls) && url.urls.every((x) => validUrl(x));
}

function profileBio(v: unknown): unknown {
  if (!isObject(v) || typeof v.description !== 'string') return null;
  if (bioAsIs(v)) return v;
  const bio: Obj = { ...v };
  if (isObject(bio.entities)) {
    const entities: Obj = { ...bio.entities };
    if (entities.description !== undefined && !isObject(entities.description)) delete entities.description;
    if (isObject(entities.url)) {
      const urls = Array.isArray(entities.url.urls) ? entities.url.urls.filter((x) => validUrl(x)) : [];
      entities.url = { ...entities.url, urls };
    } else {
      delete entities.url;
    }
    bio.entities = entities;
  } else {
    delete bio.entities;
  }
  return bio;
}
