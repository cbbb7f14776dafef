<?php
$vs = ["1.0","1.1","1.1.2","1.1.10","1.1.12","1.1.15","1.1.19-r1","1.2.0","1.2.0-r0","1.2.0-r1","1.2.0-r2","1.2","1.2.0.0","1.2.0-dev","1.2.0-alpha","1.2.0a","1.2.0-beta","1.2.0b1","1.2.0RC1","1.2.0-rc2","1.2.0pl1","1.2.0-p1","1.2.0-patch","1.2.0+build5","1.2.0_1","1.2.0-1","1.2.0.1","1.10","1.9","2","10","1","0","0.9","1.0.0","1.0-0","v1.2","1.2.0-","-1.0","1..2",".5","1.2.0-r10","1.2.0-foo","1.2.0-zzz","999999999999999999999","1.2.0.#N#",
  // reference-behaviour.md §2: leading v, rc/r/pl/p, R, trailing space, empty parts, leading zeros, _ and + separators
  "v1.1.15","1.1.15","1.1.15 ","1.1.15.0","1.1.15a","1..15","01.1.15","1.1.16","1.2.1","2.0","10.0","99","1.2.0-R2","1.2.0_r2","1.2.0+r2","1.2.0r2","1.2.0.r2","1.2.0-rc1","1.2.0-pl1","1.2.0-beta","abc","latest","00","0.0"," 1.1.15","1.1.15-r2","V1.1.15",
  // A NUL byte ends a C string: PHP compares what comes before it (the query can carry %00).
  "1.2.0-r2\0", "1.2.0-r2\0zz", "1.2.0-r2\0.0", "\0", "\01.2.0", "1.2.0\0-r2",
  // PHP reads bytes: a non-ASCII character is several bytes, none of them alphanumeric (the first kept as it is).
  "\u{2029}jC5-", "\u{FB01}A5\u{4E2D}8y", "\u{E9}1.0", "1.0\u{E9}", "1.2.0-r\u{E9}2", "\u{4E2D}", "1.0\u{A0}", "\u{C4}1", "v3"];
$out = [];
foreach ($vs as $a) foreach ($vs as $b) $out[] = [$a, $b, version_compare($a, $b)];
echo "{\n  \"generator\": \"PHP " . PHP_VERSION . " version_compare(), by test/golden/version-compare.php\",\n  \"cases\": [\n    " . implode(",\n    ", array_map(fn($c) => json_encode($c, JSON_UNESCAPED_SLASHES), $out)) . "\n  ]\n}\n";
