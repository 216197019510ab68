// Found through setup.py's absolute -I (angle brackets skip the source's own directory),
// as real packages find cutlass and their own headers.
#ifndef WGCUDA_CONFIG_H
#define WGCUDA_CONFIG_H
#define WG_BLOCK 256
#endif
