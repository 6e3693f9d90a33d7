/**
 * What connecting needs and the first screen does not: the catalogue (with zod, which its schemas are
 * made of), the client and the relay's environments contract. A chunk of its own that the App starts
 * fetching as it first renders, so the taskpane is drawn before this code arrives; the environments are
 * read as soon as it has (test/taskpane/bundle.test.ts weighs the first load without it).
 */
export { catalog } from '../../catalog';
export { createClient, isApiError } from '../../client';
export { catalogFor } from './catalog';
export { environmentBaseUrl, fetchEnvironment, fetchEnvironments } from './environments';
export { fetchAuthConfig } from './relayIdentity';
