// A counter incremented atomically by every thread and reset plainly by thread 0 of each block.
// run: count --global 128 --group 64 counter=zeros:1
__global__ void count(int *counter)
{
    if (threadIdx.x == 0) *counter = 0; // expect: racecheck
    atomicAdd(counter, 1); // expect: racecheck
}
