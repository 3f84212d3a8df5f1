#!/bin/sh
if command -v nvcc >/dev/null; then
  nvcc -c k.cu
fi
