/** The session behaviour (scenarios.ts) through the `@tianji/client` API itself, memory storage. */
import { sdkDriver } from './drivers/sdk.js';
import { describeClient } from './run.js';

describeClient('sdk', sdkDriver);
