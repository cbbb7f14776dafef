// test/pipeline/incremental-property-2.slow.test.ts
// Part 2 of the incremental rebuilds' property test (test/pipeline/incremental-property.ts).

import { propertySuite } from "./incremental-property.js";

propertySuite(2);
