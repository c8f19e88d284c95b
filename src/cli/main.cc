#include <cstdio>
int main() { std::puts("floe"); return 0; }
