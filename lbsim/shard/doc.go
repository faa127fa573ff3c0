// Package shard splits a sweep over M configurations (indexed 0..M-1) into n
// deterministic parts, stores each part as a self-checking CSV file, and merges
// the parts back into the table an unsharded run would have produced, byte for
// byte.
//
// A shard file (named shard-<i>-of-<n>.csv) looks like
//
//	# lbsim-shard v1 sweep=<sha256 of the canonical sweep spec> shard=<i>/<n> configs=<M>
//	config,policy,load,...        <- CSV header, first column the configuration index
//	0,rnd,0.5,...                 <- one row per configuration of the shard, ascending
//	3,rnd,0.8,...
//	# complete rows=<k> sha256=<hex SHA-256 of the CSV header and rows, as written>
//
// The trailer is written last and the file appears only by an atomic rename, so
// a killed writer leaves either no file or a file without a valid trailer; such
// a file is never taken as complete and the shard is simply run again.
//
// The package has no dependency on the simulator: a configuration is just an
// index and a row of strings.
package shard
