/** Tolerant reader of a user object (search results, batch lookups, post authors). */
import { UrlEntity } from '../schemas';
import { bool, idString, isObject, nullableString, str, toInt, validatorOf, type Obj } from './values';

const validUrl = validatorOf(UrlEntity);

export function normalizeUser(v: unknown): unknown {
  if (!isObject(v)) return v;
  const u: Obj = { ...v };
  u.type = u.type ?? 'user';
  u.id = idString(u.id ?? u.id_str ?? u.rest_id);
  u.userName = u.userName ?? u.screen_name ?? u.username;
  u.name = str(u.name, '');
  u.url = str(u.url, '');
  u.isBlueVerified = bool(u.isBlueVerified, false);
  u.description = str(u.description, '');
  u.location = nullableString(u.location);
  u.followers = toInt(u.followers) ?? 0;
  u.following = toInt(u.following) ?? 0;
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
  return u;
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
