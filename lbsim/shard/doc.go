// Package shard splits a sweep over M configurations (indexed 0..M-1) into n
// deterministic parts, stores each part as a self-checking CSV file, and merges
// the parts back into the table an unsharded run would have produced, byte for
// byte. lbsim sweep -shard, lbsim merge and lbsim slurm use it (see the
// command's documentation, go doc ./lbsim/cmd/lbsim).
//
// # Assignment
//
// Configuration c belongs to shard c mod n ([Assign]): a sweep whose cost
// grows along its index (higher loads last) is spread evenly over the shards.
// A sweep has at most [MaxConfigs] configurations.
//
// # File format
//
// A shard file, named shard-<i>-of-<n>.csv ([FileName]), looks like
//
//	# lbsim-shard v2 sweep=<sweep id> code=<code version> shard=<i>/<n> configs=<M>
//	config,policy,servers,load,...   <- CSV header, first column the configuration index
//	0,rnd,50,0.5,...                 <- rows of configurations i, i+n, i+2n, ..., ascending
//	3,rnd,50,0.8,...
//	# complete rows=<k> sha256=<hex SHA-256 of every line above>
//
// The sweep id is the hex SHA-256 of the sweep's canonical specification
// ([NewSweep]; lbsim's covers the code version too), the code version that of
// the build that computed the rows ([Sweep].Code, lbsim.CodeVersion). The
// trailer's hash covers the identification line and the CSV. Files of
// version 1 (no code=, the hash over the CSV only) are still read, so that
// they are recognised as another build's rather than overwritten.
//
// # Writing
//
// A [Writer] writes rows as they come to a temporary file in the directory;
// Close adds the trailer, syncs the file and hard-links it to its final name,
// which fails if the name exists: a shard file is created exactly once and
// never replaced, of two writers racing for it exactly one succeeds, and a
// killed writer leaves no file under the final name. (On a file system
// without hard links it renames, after checking the name is free.) Files are
// mode 0644. A file without a valid trailer is never taken as complete, and
// the shard is simply run again. [Lock] claims a shard for one process with
// flock(2) on .shard-<i>-of-<n>.lock, released by the kernel however the
// process ends. The CSV has no wall-clock columns, so reruns give identical
// bytes.
//
// # Reading and merging
//
// [ReadFile] and [Merge] read only regular files of at most [MaxFileBytes]
// (256 MiB), so a FIFO or /dev/zero is an error, not a hang. Merge checks
// that every file is complete and intact, that all belong to one sweep
// computed by one build, with one header, and that every configuration
// appears exactly once (files of different splits are merged when they
// cover it so); otherwise it names the foreign file, the missing shard or
// configuration, or the duplicate, and what to do. Other files in the
// directory (temporary files of killed writers, batch logs, the merged
// output) are ignored. Rows come out in configuration order, encoded by
// [EncodeCSV], the one encoding of shard bodies and merged tables.
//
// The package has no dependency on the simulator: a configuration is just an
// index and a row of strings.
package shard
