<?php
// Golden data for src/php/php-request.ts, printed by real PHP: `php test/golden/php-request.php > test/golden/php-request.php.json`.
// parse_str() runs the same parser as $_GET (php_default_treat_data); strings are printed as hex (they are bytes).
$queries = [
  "action=config", "action=%63onfig", "action=Config", "ACTION=config", "action=config%20", "action", "action=",
  "action%5B%5D=config", "action[]=config", "action[x]=config", "action=config&action=status", "action[]=a&action=b",
  "action=a&action[]=b", "current.version=1.0", "current%20version=1.0", "current+version=1.0", "%20%20current_version=1",
  "cur rent.ver sion=1", "a[b.c=1", "a[b c]=1", "a[ x]=2&a[ ]=3", "[x=4", "=5", "&&&a=1&&", "a=%FF", "a=%C3%84PHP",
  "a=%E2%82", "a=%C0%80", "a=%ED%A0%80", "a=%F4%90%80%80", "a=%F0%9F%98%80", "a=100%", "a=%zz%4", "a=%2", "a=+%2B+",
  "n%00m=1", "nm=a%00b", "q[a][b]c=6", "r[a[b]=7", "t[]x=8", "u[a]=1&u[]=2&u[7]=3&u[]=4&u[-5]=9&u[]=5", "k=1&k[]=2",
  "k[]=1&k=2", "c[01]=y&c[1]=x&c[-0]=z&c[9223372036854775808]=w&c[]=v", "a[b][c.d=1", "b[x][y][=2", "e.f[g.h]=1",
  "type[]=folder&extension=php", "x[][]=1&x[][]=2", "a=1=2", "a==", "%5Ba%5D=1", "a%5Bb%5D=1", "a%2Eb=1", "a.b.c=1",
  "\x01a=1", "ä.b=1", "a%FF.b=1", "v=1.2.0-r2&v=%201", ". =1", " =1", "_=1",
];
$parsed = [];
foreach ($queries as $q) {
  $out = [];
  parse_str($q, $out);
  $parsed[] = ["query" => bin2hex($q), "result" => enc($out)];
}
function enc($v) {
  if (is_array($v)) {
    $entries = [];
    foreach ($v as $k => $x) $entries[] = [is_int($k) ? "int" : "str", bin2hex((string) $k), enc($x)];
    return ["array" => $entries];
  }
  return bin2hex($v);
}
$samples = ["folder.png", "../icons/folder.png", "icons/folder.png", "/etc/folder.png", "folder.png/", "folder.png//",
  "../../etc/passwd", "C:\\icons\\folder.png", "/", "", ".", "..", "a/b/", "//", ".png", "app/green.png", "x\xff/y.png",
  "PHP", "ÄPHP", "İphp", "MiXeD-Case_1.TXT", "\xff\xfeABC"];
$strings = [];
foreach ($samples as $s) {
  $json = json_encode($s);
  $strings[] = ["input" => bin2hex($s), "basename" => bin2hex(basename($s)), "strtolower" => bin2hex(strtolower($s)),
    "json_ok" => $json !== false];
}
echo json_encode(["generator" => "PHP " . PHP_VERSION . " parse_str/basename/strtolower/json_encode, by test/golden/php-request.php",
  "parse" => $parsed, "strings" => $strings], JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES), "\n";
