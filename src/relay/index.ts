export { startRelay, type Relay, type RelayOptions } from './server';
export {
  loadRelayConfig,
  parseRelayConfig,
  relayConfig,
  RelayConfigError,
  ENV_VARS,
  type RelayConfig,
  type RelayConfigInput,
} from './config';
export { RELAY_ERRORS, type RelayErrorCode } from './errors';
