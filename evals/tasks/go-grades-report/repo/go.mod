module example.com/grades

go 1.19
