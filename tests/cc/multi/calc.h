int	add(int, int);
int	mul(int, int);
