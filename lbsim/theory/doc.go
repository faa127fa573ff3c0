// Package theory holds closed-form and exact results for the dispatching
// systems that lbsim simulates, so that every simulated curve can be checked
// against an independent value.
//
// Conventions (shared with the simulator): job sizes are in work units;
// server k has speed mu_k, so a job of size X occupies it for X/mu_k time
// units; lambda is the total arrival rate; rho is a per-server load; the
// waiting time W runs from arrival to start of service and the response time
// is R = W + X/mu.
//
// Every function states its formula and the conditions under which it holds,
// and returns an error, never NaN or Inf, outside them. Error texts name the
// offending value, the allowed range and a fix.
// Exact numerical results: DispatchExact (JSQ-d/JIQ chains, small K), MDc, GIM1 and GIH2.
package theory
