/**
 * "Remember on this device": the only place a password is persisted, and only when the user opts in.
 * localStorage keys carry Office's partition key where Office partitions storage, so two add-in
 * instances on different hosts/domains do not share them. Never the workbook: it travels with the file.
 */
export interface Credentials {
  identifier: string;
  password: string;
}

export interface CredentialStore {
  /** false where the host gives no storage: "remember" is then not offered. */
  readonly available: boolean;
  load(environment: string): Credentials | null;
  save(environment: string, credentials: Credentials): void;
  forget(environment: string): void;
}

export function createCredentialStore(storage: Storage | undefined, partitionKey?: string): CredentialStore {
  const key = (environment: string) => `${partitionKey ?? ''}grc-sheets.credentials.${environment}`;
  return {
    available: storage !== undefined,
    load(environment) {
      const raw = storage?.getItem(key(environment));
      if (!raw) return null;
      try {
        const value = JSON.parse(raw) as Partial<Credentials>;
        return typeof value.identifier === 'string' && typeof value.password === 'string'
          ? { identifier: value.identifier, password: value.password }
          : null;
      } catch {
        return null;
      }
    },
    save(environment, credentials) {
      storage?.setItem(key(environment), JSON.stringify(credentials));
    },
    forget(environment) {
      storage?.removeItem(key(environment));
    },
  };
}
