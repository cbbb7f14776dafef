// test/integration/incremental-property-1.test.ts
// Part 1 of the incremental rebuilds' property test (test/integration/incremental-property.ts).

import { propertySuite } from "./incremental-property.js";

propertySuite(1);
