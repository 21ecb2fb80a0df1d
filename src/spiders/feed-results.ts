import { callbackOutputs } from '../contracts/callback-output.js';
import type { CallbackOutput, CallbackResult } from '../http/request.js';

/** Everything one parseNode / parseRow call produced, in order (what Scrapy hands to process_results as a list). */
export async function collectOutputs(result: CallbackResult): Promise<CallbackOutput[]> {
  const outputs: CallbackOutput[] = [];
  for await (const output of callbackOutputs(result)) outputs.push(output);
  return outputs;
}
