// test/integration/incremental-property-2.test.ts
// Part 2 of the incremental rebuilds' property test (test/integration/incremental-property.ts).

import { propertySuite } from "./incremental-property.js";

propertySuite(2);
