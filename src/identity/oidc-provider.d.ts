/**
 * oidc-provider 8 ships no types (@types/oidc-provider is not a dependency): the part of its API the demo
 * provider uses, typed loosely where the library hands over its own Koa context.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  /* eslint-disable @typescript-eslint/no-explicit-any */
  export type KoaContextWithOIDC = any;
  export type Configuration = Record<string, any>;

  export interface InteractionDetails {
    uid: string;
    prompt: { name: string };
    params: Record<string, unknown>;
  }

  export default class Provider {
    constructor(issuer: string, configuration: Configuration);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<InteractionDetails>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
  }

  export const errors: { InvalidTarget: new (description?: string) => Error };
}
