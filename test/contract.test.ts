// The demo agent's contract suite: one test per prompt and case (snapshot + examples), then
// every other check the config enables. This is what a user's suite looks like.
import { contractSuite } from 'prompt-contract/jest';

await contractSuite();
