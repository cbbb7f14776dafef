// test/pipeline/incremental-property-1.slow.test.ts
// Part 1 of the incremental rebuilds' property test (test/pipeline/incremental-property.ts).

import { propertySuite } from "./incremental-property.js";

propertySuite(1);
