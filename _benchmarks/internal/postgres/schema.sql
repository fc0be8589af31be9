-- TechEmpower's PostgreSQL schema and data (toolset/databases/postgres/
-- create-postgres.sql of TechEmpower/FrameworkBenchmarks): World with 10,000
-- rows of a random number in 1..10000, Fortune with its 12 messages. Their
-- script creates every table twice, unquoted (world, fortune) and quoted
-- ("World", "Fortune"); the apps read the unquoted ones, which is what the
-- query counts of the verifier look at, so both are kept as they are.
CREATE EXTENSION IF NOT EXISTS pg_stat_statements;

CREATE TABLE world (
  id integer NOT NULL,
  randomnumber integer NOT NULL DEFAULT 0,
  PRIMARY KEY (id)
);
INSERT INTO world (id, randomnumber)
SELECT x.id, least(floor(random() * 10000 + 1), 10000) FROM generate_series(1, 10000) AS x(id);

CREATE TABLE fortune (
  id integer NOT NULL,
  message varchar(2048) NOT NULL,
  PRIMARY KEY (id)
);
INSERT INTO fortune (id, message) VALUES
  (1, 'fortune: No such file or directory'),
  (2, 'A computer scientist is someone who fixes things that aren''t broken.'),
  (3, 'After enough decimal places, nobody gives a damn.'),
  (4, 'A bad random number generator: 1, 1, 1, 1, 1, 4.33e+67, 1, 1, 1'),
  (5, 'A computer program does what you tell it to do, not what you want it to do.'),
  (6, 'Emacs is a nice operating system, but I prefer UNIX. — Tom Christaensen'),
  (7, 'Any program that runs right is obsolete.'),
  (8, 'A list is only as strong as its weakest link. — Donald Knuth'),
  (9, 'Feature: A bug with seniority.'),
  (10, 'Computers make very fast, very accurate mistakes.'),
  (11, '<script>alert("This should not be displayed in a browser alert box.");</script>'),
  (12, 'フレームワークのベンチマーク');

CREATE TABLE "World" (
  id integer NOT NULL,
  randomNumber integer NOT NULL DEFAULT 0,
  PRIMARY KEY (id)
);
INSERT INTO "World" (id, randomnumber) SELECT id, randomnumber FROM world;

CREATE TABLE "Fortune" (
  id integer NOT NULL,
  message varchar(2048) NOT NULL,
  PRIMARY KEY (id)
);
INSERT INTO "Fortune" (id, message) SELECT id, message FROM fortune;

GRANT ALL PRIVILEGES ON world, fortune, "World", "Fortune" TO benchmarkdbuser;
