/**
 * Coding's face for the files worker's entry (compose/files-worker.ts): reading another person's files and making
 * share packages on that thread, without main's side of the area (its service, handlers and settings file).
 */
export type { RefiReader } from './files/reader';
export type { SharePackager } from './files/packager';
export { readOnThisThread as readRefiFiles } from './files/reader';
export { packOnThisThread as makeSharePackages } from './files/packager';
